import { artifactNotesMachine } from '../../machines/artifactNotes/artifactNotesMachine.ts';
import { captionEditorMachine } from '../../machines/captionEditor/captionEditorMachine.ts';
import { momentCommentMachine } from '../../machines/momentComment/momentCommentMachine.ts';
import type { MomentsSetup } from '../../machines/momentComment/useMomentComment.ts';
import { videoPlayerMachine } from '../../machines/videoPlayer/videoPlayerMachine.ts';
import { captionFileUrl, momentsExportUrl } from '../../services/momentService.ts';
import { notify } from '../../views/feedback/toastStore.ts';
import type { Notice } from '../../machines/shared/notice.ts';

const notifyAction = (_: unknown, notice: Notice) => notify(notice.message, notice.tone);

/** The logic of video moments (players, the moment composer, the caption editor) with the app's toasts. */
export function provideMoments(): MomentsSetup {
  return {
    player: videoPlayerMachine,
    composer: momentCommentMachine.provide({ actions: { notify: notifyAction } }),
    captions: captionEditorMachine.provide({ actions: { notify: notifyAction } }),
    notes: artifactNotesMachine,
    captionUrl: captionFileUrl,
    momentsExportUrl,
  };
}
