import { useLingui } from '@lingui/react/macro';
import { uncertainPieces } from '../../../contract/uncertain-words';

/**
 * Transcript text with the words the speech engine was not sure of shown as uncertain (a dotted underline, and
 * "uncertain" said to screen readers before them); the brackets that mark them in the text are not shown.
 */
export function TranscriptText({ text }: { text: string }) {
  const { t } = useLingui();
  return (
    <>
      {uncertainPieces(text).map((piece, i) =>
        piece.uncertain ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one text in order, rebuilt whole from it; they hold no state.
          <span key={i} className="uncertain-words" data-testid="uncertain-words" title={t`Not heard clearly: check against the recording`}>
            <span className="visually-hidden">{t`(uncertain:`} </span>
            {piece.text}
            <span className="visually-hidden">)</span>
          </span>
        ) : (
          piece.text
        ),
      )}
    </>
  );
}
