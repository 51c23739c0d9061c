import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { appStore } from '../../app-state';
import type { GeneratedDocument } from '../../api/documents';
import { DocumentView } from './DocumentView';
import { versionNav } from './version-nav';

/** A server in memory: the versions of one document and the change calls it received. */
const versions: GeneratedDocument[] = [];
const changes: unknown[] = [];
const make = (version: number, text: string): GeneratedDocument => ({
  id: `v${version}`,
  key: 'consultation_notes',
  version,
  total_versions: version,
  status: 'done',
  text,
  engine: 'composer',
  uses_ai: false,
  change_kind: null,
  change_text: null,
  created_at: new Date().toISOString(),
});

vi.mock('../../api/documents', () => ({
  documentsApi: {
    get: vi.fn(async (_s: string, _d: string, version?: number) => {
      const doc = version ? versions[version - 1] : versions.at(-1);
      return { generated_document: { ...doc!, total_versions: versions.length } };
    }),
    start: vi.fn(),
    change: vi.fn(async (_s: string, _d: string, change: { markdown?: string; text?: string }) => {
      changes.push(change);
      if (change.text === 'fail') throw new Error('network');
      versions.push(make(versions.length + 1, change.markdown ?? `${versions.at(-1)!.text}\n\n${change.text}`));
      return { generated_document: { ...versions.at(-1)!, total_versions: versions.length } };
    }),
  },
}));

/** The live stream of a version being written: it ends when the test says so. */
const stream = vi.hoisted(() => ({ end: (): void => undefined }));
vi.mock('../../api/document-stream', () => ({
  StreamEndedEarly: class extends Error {},
  followDocument: vi.fn(() => new Promise<void>((resolve) => (stream.end = resolve))),
}));

beforeEach(() => {
  versions.length = 0;
  changes.length = 0;
  versions.push(make(1, '# Notes\n\nChest pain.'));
});
afterEach(cleanup);

const mount = ({ readOnly = false } = {}) =>
  render(
    <Provider store={appStore}>
      <I18nProvider i18n={i18n}>
        <DocumentView sessionId="s1" docKey="main" title="Consultation notes" canGenerate={!readOnly} readOnly={readOnly} />
      </I18nProvider>
    </Provider>,
  );

describe('version navigation', () => {
  it('goes nowhere past the first or the last version', () => {
    expect(versionNav(1, 1)).toEqual({ previous: undefined, next: undefined });
    expect(versionNav(1, 3)).toEqual({ previous: undefined, next: 2 });
    expect(versionNav(2, 3)).toEqual({ previous: 1, next: 3 });
    expect(versionNav(3, 3)).toEqual({ previous: 2, next: undefined });
  });
});

describe('DocumentView', () => {
  it('a markdown edit makes version 2 of 2, and version 1 stays readable', async () => {
    mount();
    await screen.findByText('Version 1 of 1');
    fireEvent.click(screen.getByRole('button', { name: 'Edit notes' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit notes' });
    fireEvent.mouseDown(screen.getByRole('tab', { name: 'Edit text' }));
    const editor = await screen.findByLabelText('Document text (markdown)');
    expect((editor as HTMLTextAreaElement).value).toBe('# Notes\n\nChest pain.');
    fireEvent.change(editor, { target: { value: '# Notes\n\nChest pain since Monday.' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save as new version' }));
    await screen.findByText('Version 2 of 2');
    expect(dialog.isConnected).toBe(false);
    expect(changes).toEqual([{ markdown: '# Notes\n\nChest pain since Monday.' }]);
    expect(screen.getByTestId('document-text').textContent).toContain('Chest pain since Monday.');

    fireEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    await screen.findByText('Version 1 of 2');
    expect(screen.getByTestId('document-text').textContent).not.toContain('since Monday');
    expect((screen.getByRole('button', { name: 'Previous version' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Next version' }));
    await screen.findByText('Version 2 of 2');
  });

  it('a text command that cannot be sent says so and keeps the dialog open', async () => {
    mount();
    await screen.findByText('Version 1 of 1');
    fireEvent.click(screen.getByRole('button', { name: 'Edit notes' }));
    fireEvent.change(await screen.findByLabelText('Request a change'), { target: { value: 'fail' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send change' }));
    await waitFor(() => expect(screen.getByRole('dialog').textContent).toMatch(/Failed to send notes|Connection problems|error/i));
    expect(screen.getByText('Version 1 of 1')).toBeTruthy();
  });

  it('a version the engine did not finish: why, nothing charged, Write again, and its text only as a marked draft', async () => {
    versions.push({
      ...make(2, '# Notes\n\nWorks with volunteers as a basketb'),
      status: 'failed',
      engine: 'openai',
      uses_ai: true,
      error_code: 'engine_length_limit',
    });
    const { documentsApi } = await import('../../api/documents');
    vi.mocked(documentsApi.start).mockImplementation(async () => {
      versions.push(make(3, '# Notes\n\nWorks with volunteers as a basketball coach.'));
      return { generated_document: { ...versions.at(-1)!, total_versions: versions.length } };
    });
    mount();
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe(
      'The AI engine stopped before finishing the document (it reached its length limit). Nothing was charged. Write again, or shorten the request.',
    );
    expect(screen.getByText('Incomplete: the engine stopped before the end.')).toBeTruthy();
    const draft = screen.getByTestId('document-text');
    expect(draft.dataset.incomplete).toBe('true');
    expect(draft.getAttribute('aria-describedby')).toBe('incomplete-v2');
    for (const name of ['Copy', 'Copy as plain text', 'Export PDF', 'Download .md', 'Edit notes']) expect(screen.queryByRole('button', { name })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Write again' }));
    await screen.findByText('Version 3 of 3');
    expect(screen.queryByText('Incomplete: the engine stopped before the end.')).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy' })).toBeTruthy();
  });

  it('read-only (an archived consultation): every version, copy and export, but nothing that changes it', async () => {
    versions.push(make(2, '# Notes\n\nChest pain since Monday.'));
    mount({ readOnly: true });
    await screen.findByText('Version 2 of 2');
    for (const name of ['Edit notes', 'Write again', 'Generate']) expect(screen.queryByRole('button', { name })).toBeNull();
    for (const name of ['Copy', 'Copy as plain text', 'Export PDF', 'Download .md']) expect(screen.getByRole('button', { name })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Previous version' }));
    await screen.findByText('Version 1 of 2');
    expect(screen.getByTestId('document-text').textContent).not.toContain('since Monday');
  });
});

describe('telling that the document is ready', () => {
  const shown: { title: string; body?: string; tag?: string }[] = [];
  let visibility: DocumentVisibilityState = 'hidden';
  class FakeNotification {
    static permission: NotificationPermission = 'granted';
    static requestPermission = vi.fn(async () => {
      FakeNotification.permission = 'granted';
      return FakeNotification.permission;
    });
    onclick: (() => void) | null = null;
    constructor(title: string, options?: NotificationOptions) {
      shown.push({ title, body: options?.body, tag: options?.tag });
    }
    close() {}
  }
  beforeEach(() => {
    shown.length = 0;
    visibility = 'hidden';
    FakeNotification.permission = 'granted';
    FakeNotification.requestPermission.mockClear();
    vi.stubGlobal('Notification', FakeNotification);
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'visible' });
  });

  const mountWriting = () => {
    versions[0] = { ...versions[0]!, status: 'generating', text: '' };
    return render(
      <Provider store={appStore}>
        <I18nProvider i18n={i18n}>
          <DocumentView sessionId="s1" docKey="main" title="Consultation notes" canGenerate patientLabel="Ana P." />
        </I18nProvider>
      </Provider>,
    );
  };
  const finishWriting = () => {
    versions[0] = { ...versions[0]!, status: 'done', text: '# Notes\n\nChest pain.' };
    stream.end();
  };

  it('a document finished while the tab is in the background is told once, with its name and the patient label only', async () => {
    mountWriting();
    await screen.findByText('Writing the document…');
    finishWriting();
    await screen.findByText('Chest pain.');
    expect(shown).toEqual([{ title: 'The document is ready', body: 'Consultation notes · Ana P.', tag: 'document-ready:v1' }]);
  });

  it('says nothing while the tab is in view, nor for a document that was already written', async () => {
    visibility = 'visible';
    mountWriting();
    await screen.findByText('Writing the document…');
    finishWriting();
    await screen.findByText('Chest pain.');
    cleanup();
    visibility = 'hidden';
    mount();
    await screen.findByText('Chest pain.');
    expect(shown).toEqual([]);
  });

  it('asks the browser only when the clinician asks to be told', async () => {
    FakeNotification.permission = 'default';
    mountWriting();
    const ask = await screen.findByRole('button', { name: 'Notify me when it is ready' });
    expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
    fireEvent.click(ask);
    await screen.findByText('You will be notified when it is ready, if this tab is in the background.');
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(screen.queryByRole('button', { name: 'Notify me when it is ready' })).toBeNull();
  });
});
