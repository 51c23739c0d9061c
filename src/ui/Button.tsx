import type { ButtonHTMLAttributes } from 'react';

type Props = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: 'primary' | 'secondary' | 'danger' | 'ghost';
  block?: boolean;
  busy?: boolean;
};

export function Button({ variant = 'primary', block, busy, disabled, type = 'button', children, ...rest }: Props) {
  return (
    <button
      {...rest}
      type={type}
      className="button"
      data-variant={variant}
      data-block={block ? 'true' : undefined}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {children}
    </button>
  );
}
