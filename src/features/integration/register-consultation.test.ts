import { describe, expect, it } from 'vitest';
import { parseRegisterMessage } from './register-consultation';

const allowed = ['https://ehr.hospital.pt'];

describe('register_consultation message', () => {
  it('is taken only from a configured origin and with the right event', () => {
    expect(
      parseRegisterMessage(
        { origin: 'https://ehr.hospital.pt', data: { event: 'register_consultation', consultation_type_id: 'dictation', external_id: 'EP-42' } },
        allowed,
      ),
    ).toEqual({
      consultationTypeId: 'dictation',
      externalId: 'EP-42',
    });
    expect(parseRegisterMessage({ origin: 'https://evil.example', data: { event: 'register_consultation' } }, allowed)).toBeUndefined();
    expect(parseRegisterMessage({ origin: 'https://ehr.hospital.pt', data: { event: 'something_else' } }, allowed)).toBeUndefined();
    expect(parseRegisterMessage({ origin: 'https://ehr.hospital.pt', data: 'register_consultation' }, allowed)).toBeUndefined();
    expect(parseRegisterMessage({ origin: 'https://ehr.hospital.pt', data: null }, allowed)).toBeUndefined();
  });

  it('drops a malformed type instead of sending it on', () => {
    expect(
      parseRegisterMessage({ origin: 'https://ehr.hospital.pt', data: { event: 'register_consultation', consultation_type_id: '../../x' } }, allowed),
    ).toEqual({ consultationTypeId: undefined, externalId: undefined });
  });
});
