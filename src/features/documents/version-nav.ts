/** Which versions the ‹ and › buttons lead to from the one shown (none past the first or the last). */
export function versionNav(current: number, total: number): { previous?: number; next?: number } {
  return { previous: current > 1 ? current - 1 : undefined, next: current < total ? current + 1 : undefined };
}
