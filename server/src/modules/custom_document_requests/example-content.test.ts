import { describe, expect, it } from 'vitest';
import { contentMatches } from './example-content.js';

describe('contentMatches', () => {
  it('accepts files that are what they say', () => {
    expect(contentMatches('application/pdf', Buffer.from('%PDF-1.7\n...'))).toBe(true);
    expect(contentMatches('image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe(true);
    expect(contentMatches('image/jpeg', Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe(true);
    expect(
      contentMatches(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        Buffer.from('PK\u0003\u0004..[Content_Types].xml..word/document.xml'),
      ),
    ).toBe(true);
    expect(contentMatches('application/msword', Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0]))).toBe(true);
    expect(contentMatches('text/plain', Buffer.from('Relatório\tclínico\r\nLinha 2'))).toBe(true);
  });
  it('refuses a program renamed, text that is not text, and a zip that is no Word file', () => {
    const exe = Buffer.from('MZ\u0090\u0000\u0003\u0000\u0000\u0000This program cannot be run in DOS mode');
    for (const mime of [
      'application/pdf',
      'image/png',
      'image/jpeg',
      'application/msword',
      'text/plain',
      'text/markdown',
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    ]) {
      expect(contentMatches(mime, exe), mime).toBe(false);
    }
    expect(contentMatches('text/plain', Buffer.from([0xc3, 0x28]))).toBe(false);
    expect(contentMatches('application/vnd.openxmlformats-officedocument.wordprocessingml.document', Buffer.from('PK\u0003\u0004....payload.exe'))).toBe(false);
    expect(contentMatches('application/x-msdownload', Buffer.from('%PDF-'))).toBe(false);
    // A program with "%PDF-" further in, a Word zip with a macro project, a page or a script as text.
    expect(contentMatches('application/pdf', Buffer.from('MZ\u0090\u0000....%PDF-1.7'))).toBe(false);
    expect(
      contentMatches(
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
        Buffer.from('PK\u0003\u0004[Content_Types].xml word/document.xml word/vbaProject.bin'),
      ),
    ).toBe(false);
    for (const text of ['<!DOCTYPE html><p>hi', 'Notes <script>alert(1)</script>', '#!/bin/sh\nrm -rf ~', '@echo off\r\ndel *.*'])
      expect(contentMatches('text/plain', Buffer.from(text)), text).toBe(false);
  });
});
