import type { ReactNode, Ref, TextareaHTMLAttributes } from 'react';
import { Field } from './Field';

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & { label: ReactNode; hint?: ReactNode; error?: string; ref?: Ref<HTMLTextAreaElement> };

/** A labelled multi-line field, its hint and error announced with it. */
export function TextAreaField({ label, hint, error, rows = 4, ...textarea }: Props) {
  return (
    <Field label={label} hint={hint} error={error}>
      {(control) => <textarea {...control} rows={rows} {...textarea} />}
    </Field>
  );
}
