/**
 * The permission table (`permissions.md`) as a test, video moments: comments at a moment, private notes, captions, alt text, exports: see
 * `server/test/authorizationMatrix.ts` for what every case checks.
 */
import {
  ARTIFACT_NOT_FOUND,
  type Case,
  checkRoutes,
  editSharedCaptions,
  get,
  hidden,
  notesOnly,
  personalArtifact,
  personalVideoWorld,
  personalWorld,
  readShared,
  SHARED_ARTIFACT_NOT_FOUND,
  sharedVideoWorld,
  sharedWorld,
  TRACK_NOT_FOUND,
  VTT,
  work,
} from '../../../test/authorizationMatrix.ts';

const CASES: Case[] = [
  // Video moments: comments at a moment, private notes, captions, alt text, exports
  {
    route: 'POST /comments at a moment',
    expect: work('Invalid shared artifact ID.'),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return {
        method: 'POST',
        url: '/comments',
        payload: { sharedArtifact: sa!.id, text: 'Here.', moment: { media: video, start: 1, end: 2 } },
      };
    },
  },
  {
    route: 'POST /reactions at a moment',
    expect: work('Invalid shared artifact ID.'),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return {
        method: 'POST',
        url: '/reactions',
        payload: { sharedArtifact: sa!.id, value: '⭐', moment: { media: video, start: 1 } },
      };
    },
  },
  {
    route: 'GET /artifacts/{id}/notes',
    expect: {
      owner: 200,
      ...hidden(ARTIFACT_NOT_FOUND, 'researcher', 'teacher', 'lead'),
    },
    request: async () => get(`/artifacts/${(await personalVideoWorld()).artifact.id}/notes`),
  },
  {
    route: 'POST /artifacts/{id}/notes',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { artifact, video } = await personalVideoWorld();
      return {
        method: 'POST',
        url: `/artifacts/${artifact.id}/notes`,
        payload: { media: video, start: 2, text: 'Second look.' },
      };
    },
  },
  {
    route: 'PATCH /artifact-notes/{id}',
    expect: notesOnly,
    request: async () => ({
      method: 'PATCH',
      url: `/artifact-notes/${(await personalVideoWorld()).noteId}`,
      payload: { text: 'Changed.' },
    }),
  },
  {
    route: 'DELETE /artifact-notes/{id}',
    expect: notesOnly,
    request: async () => ({ method: 'DELETE', url: `/artifact-notes/${(await personalVideoWorld()).noteId}` }),
  },
  {
    route: 'GET /shared-artifacts/{id}/media/{mediaId}/captions',
    expect: readShared(SHARED_ARTIFACT_NOT_FOUND),
    request: async () => {
      const world = await sharedVideoWorld();
      return get(`/shared-artifacts/${world.sa!.id}/media/${world.video}/captions`);
    },
  },
  {
    route: 'GET /artifacts/{id}/media/{mediaId}/captions',
    expect: {
      owner: 200,
      researcher: 200,
      ...hidden(ARTIFACT_NOT_FOUND, 'teacher', 'lead', 'member'),
    },
    request: async () => {
      const world = await personalVideoWorld();
      return get(`/artifacts/${world.artifact.id}/media/${world.video}/captions`);
    },
  },
  {
    route: 'POST /shared-artifacts/{id}/media/{mediaId}/captions',
    expect: editSharedCaptions(
      'You can read the captions of this video but not change them.',
      SHARED_ARTIFACT_NOT_FOUND,
    ),
    request: async () => {
      const world = await sharedVideoWorld();
      return {
        method: 'POST',
        url: `/shared-artifacts/${world.sa!.id}/media/${world.video}/captions`,
        payload: { language: 'en', label: 'English', format: 'vtt', source: VTT },
      };
    },
  },
  {
    route: 'POST /artifacts/{id}/media/{mediaId}/captions',
    expect: {
      owner: 200,
      researcher: [403, 'You can read the captions of this video but not change them.'],
      ...hidden(ARTIFACT_NOT_FOUND, 'teacher', 'lead', 'member'),
    },
    request: async () => {
      const world = await personalVideoWorld();
      return {
        method: 'POST',
        url: `/artifacts/${world.artifact.id}/media/${world.video}/captions`,
        payload: { language: 'en', label: 'English', format: 'vtt', source: VTT },
      };
    },
  },
  {
    route: 'PUT /captions/{id}',
    expect: editSharedCaptions('You can read these captions but not change them.', TRACK_NOT_FOUND),
    request: async () => ({
      method: 'PUT',
      url: `/captions/${(await sharedVideoWorld()).trackId}`,
      payload: { language: 'en', label: 'English', cues: [{ start: 0, end: 2, text: 'Hello' }] },
    }),
  },
  {
    route: 'DELETE /captions/{id}',
    expect: editSharedCaptions('You can read these captions but not change them.', TRACK_NOT_FOUND),
    request: async () => ({ method: 'DELETE', url: `/captions/${(await sharedVideoWorld()).trackId}` }),
  },
  {
    route: 'GET /captions/{id}',
    expect: readShared(TRACK_NOT_FOUND),
    request: async () => get(`/captions/${(await sharedVideoWorld()).trackId}`),
  },
  {
    route: 'GET /captions/{id}/track.vtt',
    expect: readShared(TRACK_NOT_FOUND),
    request: async () => get(`/captions/${(await sharedVideoWorld()).trackId}/track.vtt?download=1`),
  },
  {
    route: 'PATCH /artifacts/{id}/media/{mediaId}',
    expect: { owner: 200, ...personalArtifact },
    request: async () => {
      const { artifact, fileId } = await personalWorld();
      return {
        method: 'PATCH',
        url: `/artifacts/${artifact.id}/media/${fileId}`,
        payload: { alt: 'A lesson plan', description: 'Day 1' },
      };
    },
  },
  {
    route: 'PATCH /shared-artifacts/{id}/media/{mediaId}',
    expect: work(),
    request: async () => {
      const { sa, fileId } = await sharedWorld();
      return {
        method: 'PATCH',
        url: `/shared-artifacts/${sa!.id}/media/${fileId}`,
        payload: { description: 'Our plan' },
      };
    },
  },
  {
    route: 'GET /shared-artifacts/{id}/media/{mediaId}/moments.csv',
    expect: readShared(SHARED_ARTIFACT_NOT_FOUND),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return get(`/shared-artifacts/${sa!.id}/media/${video}/moments.csv`);
    },
  },
  {
    route: 'GET /shared-artifacts/{id}/media/{mediaId}/moments.vtt',
    expect: readShared(SHARED_ARTIFACT_NOT_FOUND),
    request: async () => {
      const { sa, video } = await sharedVideoWorld();
      return get(`/shared-artifacts/${sa!.id}/media/${video}/moments.vtt`);
    },
  },
];

checkRoutes(CASES);
