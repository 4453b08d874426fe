import { useSelector } from '../shared/actorReact.ts';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import type { CommentAbilities } from '../../schemas/abilities.ts';
import type { Comment } from '../../schemas/sharedArtifact.ts';
import type { commentMachine } from './commentMachine.ts';

export type CommentRef = ActorRefFrom<typeof commentMachine>;

/** The shared artifact of the thread. */
export const useCommentArtifactId = (ref: CommentRef): number => useSelector(ref, (s) => s.context.artifactId);

/** The new comment as typed, whether it can be sent now, and whether it is being sent. */
export function useComposer(ref: CommentRef): { draft: string; canSubmit: boolean; posting: boolean } {
  const draft = useSelector(ref, (s) => s.context.draft);
  const canSubmit = useSelector(ref, (s) => s.can({ type: 'comment.submit' }));
  const posting = useSelector(ref, (s) => s.matches({ composer: 'posting' }));
  return { draft, canSubmit, posting };
}

/** The comment being edited (its id and text as typed), and whether it is being saved. */
export function useCommentEditor(ref: CommentRef): {
  commentId: number | null;
  text: string;
  canSave: boolean;
  saving: boolean;
} {
  const commentId = useSelector(ref, (s) => s.context.editing?.commentId ?? null);
  const text = useSelector(ref, (s) => s.context.editing?.text ?? '');
  const canSave = useSelector(ref, (s) => s.can({ type: 'comment.save' }));
  const saving = useSelector(ref, (s) => s.matches({ editor: 'saving' }));
  return { commentId, text, canSave, saving };
}

/** The comment the delete question is about (`null`: no question), and whether it is being deleted. */
export function useCommentDeletion(ref: CommentRef): { commentId: number | null; deleting: boolean } {
  const commentId = useSelector(ref, (s) => s.context.deletingId);
  const deleting = useSelector(ref, (s) => s.matches({ editor: 'deleting' }));
  return { commentId, deleting };
}

/** Whether the viewer may edit or delete this comment now (allowed, with no other edit or deletion under way). */
export const useCanChangeComment = (ref: CommentRef, commentId: number, what: 'edit' | 'delete'): boolean =>
  useSelector(ref, (s) => s.can({ type: what === 'edit' ? 'comment.edit' : 'comment.delete', commentId }));

const NO_ABILITIES: CommentAbilities = { edit: false, delete: false };

/** What the server says the viewer may do with a comment (Edit and Delete are offered accordingly). */
export const commentAbilities = (comment: Comment): CommentAbilities => comment.abilities ?? NO_ABILITIES;

/** What the comment thread may ask. */
export function useCommentEvents(ref: CommentRef) {
  return useMemo(
    () => ({
      changeDraft: (text: string) => ref.send({ type: 'comment.draftChange', text }),
      submit: () => ref.send({ type: 'comment.submit' }),
      edit: (commentId: number) => ref.send({ type: 'comment.edit', commentId }),
      changeEdit: (text: string) => ref.send({ type: 'comment.editChange', text }),
      save: () => ref.send({ type: 'comment.save' }),
      cancelEdit: () => ref.send({ type: 'comment.cancelEdit' }),
      askDelete: (commentId: number) => ref.send({ type: 'comment.delete', commentId }),
      confirmDelete: () => ref.send({ type: 'comment.confirmDelete' }),
      cancelDelete: () => ref.send({ type: 'comment.cancelDelete' }),
    }),
    [ref],
  );
}
