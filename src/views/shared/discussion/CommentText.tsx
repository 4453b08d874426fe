import { Fragment } from 'react';
import styled from 'styled-components';
import { formatDateTime, formatRelative } from '../../../schemas/formatting.ts';
import type { Comment } from '../../../schemas/sharedArtifact.ts';
import { theme } from '../../theme/theme.ts';

/** One piece of a comment's text: plain words, or an @mention of someone by name. */
export type CommentPiece = { kind: 'text'; text: string } | { kind: 'mention'; name: string; text: string };

const WORD = /[\p{L}\p{N}_]/u;

/**
 * Splits a comment's text into plain pieces and the @mentions of the given people, matched as the
 * server matches them for notifications: `@` at the start or after a character that is not a
 * letter, digit or underscore, then the name (case-insensitive, the longest name first), then
 * the end or such a character. The space the mention box types after a name, when doubled by
 * the writer, shows as one.
 */
export function splitMentions(text: string, names: readonly string[]): CommentPiece[] {
  const candidates = [...new Set(names.filter((n) => n.trim() !== ''))].sort((a, b) => b.length - a.length);
  const pieces: CommentPiece[] = [];
  let plainFrom = 0;
  let i = 0;
  while (i < text.length) {
    const at = text.indexOf('@', i);
    if (at < 0) break;
    const name =
      at > 0 && WORD.test(text[at - 1]!)
        ? undefined
        : candidates.find((n) => {
            const typed = text.slice(at + 1, at + 1 + n.length);
            const next = text[at + 1 + n.length];
            return typed.toLocaleLowerCase() === n.toLocaleLowerCase() && (next === undefined || !WORD.test(next));
          });
    if (!name) {
      i = at + 1;
      continue;
    }
    if (at > plainFrom) pieces.push({ kind: 'text', text: text.slice(plainFrom, at) });
    const end = at + 1 + name.length;
    pieces.push({ kind: 'mention', name, text: text.slice(at, end) });
    plainFrom = /^ {2,}/.test(text.slice(end)) ? end + /^ +/.exec(text.slice(end))![0].length - 1 : end;
    i = plainFrom;
  }
  if (plainFrom < text.length) pieces.push({ kind: 'text', text: text.slice(plainFrom) });
  return pieces;
}

/** A comment counts as edited when it changed more than this after it was posted (posting writes both stamps, which may differ by a millisecond). */
export const EDITED_AFTER_MS = 1000;

/** Whether the comment was changed after it was posted. */
export function isEdited(comment: Pick<Comment, 'created_at' | 'updated_at'>): boolean {
  return new Date(comment.updated_at).getTime() - new Date(comment.created_at).getTime() > EDITED_AFTER_MS;
}

const Mention = styled.span`
  padding: 0 ${theme.space.xxs};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surface};
  color: ${theme.color.primary};
  font-weight: ${theme.font.weight.medium};
  white-space: nowrap;
`;

/** A comment's text with its @mentions shown as names (never as HTML: every piece is a text node). */
export function CommentText({
  text,
  names,
}: {
  text: string;
  /** Who may be mentioned (their names as the server knows them). */ names: readonly string[];
}) {
  return (
    <>
      {splitMentions(text, names).map((piece, index) =>
        piece.kind === 'mention' ? (
          <Mention key={index} data-mention={piece.name}>
            {piece.text}
          </Mention>
        ) : (
          <Fragment key={index}>{piece.text}</Fragment>
        ),
      )}
    </>
  );
}

const Stamp = styled.span`
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

/** When a comment was posted ('5 minutes ago', '11/21/26'), and 'edited' once it was changed; the full date and time in the title. */
export function CommentStamp({ comment }: { comment: Pick<Comment, 'created_at' | 'updated_at'> }) {
  const edited = isEdited(comment);
  return (
    <Stamp>
      <time dateTime={comment.created_at} title={formatDateTime(comment.created_at)}>
        {formatRelative(comment.created_at)}
      </time>
      {edited ? (
        <>
          {' · '}
          <span title={`Edited ${formatDateTime(comment.updated_at)}`} data-edited="">
            edited
          </span>
        </>
      ) : null}
    </Stamp>
  );
}
