import { organizationsApi } from '../../api/organizations';

/** Whether the organization has a record system to send to, asked once per organization (settings forget it on change). */
const known = new Map<string, Promise<boolean>>();

export function recordSystemAvailable(organizationId: string): Promise<boolean> {
  let answer = known.get(organizationId);
  if (!answer) {
    answer = organizationsApi.get(organizationId).then(
      (r) => r.organization.record_system,
      () => {
        known.delete(organizationId);
        return false;
      },
    );
    known.set(organizationId, answer);
  }
  return answer;
}

export function forgetRecordSystem(organizationId: string) {
  known.delete(organizationId);
}
