/** The product mark: a speech bubble with a pulse line (decorative; the name is always written beside it). */
export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 64 64" aria-hidden="true" focusable="false">
      <rect x="4" y="6" width="56" height="44" rx="12" fill="currentColor" />
      <path d="M18 50 L14 60 L30 50 Z" fill="currentColor" />
      <path d="M12 29 H22 L26 20 L32 38 L37 25 L40 29 H52" fill="none" className="logo-line" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
