import type { ReactNode, SelectHTMLAttributes } from 'react';
import { Field } from './Field';

type Props = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: ReactNode;
  error?: string;
  options: { value: string; label: string }[];
};

export function SelectField({ label, error, options, ...select }: Props) {
  return (
    <Field label={label} error={error}>
      {(control) => (
        <select {...control} {...select}>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
