import type { InputHTMLAttributes, ReactNode } from 'react';
import { Field } from './Field';

type Props = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: ReactNode;
  error?: string;
  hint?: ReactNode;
};

/** A labelled input whose error and hint are announced with it (aria-describedby). */
export function TextField({ label, error, hint, ...input }: Props) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <input {...control} {...input} />}
    </Field>
  );
}
