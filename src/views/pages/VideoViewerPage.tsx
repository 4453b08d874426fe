import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import styled from 'styled-components';
import { PageHeading } from '../components/PageHeading.tsx';
import { MediaUnavailable } from '../viewers/MediaUnavailable.tsx';
import { useViewerOrigin } from '../viewers/viewerOrigin.ts';
import { theme } from '../theme/theme.ts';

/** What a browser without video support shows (spec §2). */
export const VIDEO_FALLBACK = 'Your browser does not support the video tag.';

/** The title of a video whose name the viewer does not know (never the stored file's name). */
export const UNNAMED_VIDEO = 'Video';

const Back = styled.p`
  margin: 0 0 ${theme.space.sm};
`;

const Player = styled.video`
  display: block;
  width: 100%;
  max-height: calc(100vh - 220px);
  background: #000;
  border-radius: ${theme.radius.md};
`;

/**
 * The video player (`/videos/uploads/:fileName`), named by the file's own name (or the
 * artifact's), with the poster frame the server made, and a link back to the artifact it was
 * opened from; opened from elsewhere it is simply a "Video".
 */
export function VideoViewerPage({
  src,
  fileName,
  poster,
}: {
  /** The file's address. */ src: string;
  /** The stored file's name (not shown). */ fileName: string;
  /** A poster frame (otherwise the one the opening page passed). */ poster?: string | null;
}) {
  const origin = useViewerOrigin();
  const title = origin?.title ?? UNNAMED_VIDEO;
  const posterUrl = poster ?? origin?.poster ?? null;
  const [failed, setFailed] = useState(false);
  const player = useRef<HTMLVideoElement>(null);
  // A file refused before the page was on screen fired its error unheard.
  useEffect(() => {
    if (player.current?.error) setFailed(true);
  }, []);
  const back = origin ? (
    <Back>
      <Link href={origin.backHref}>← Back to {origin.artifactTitle}</Link>
    </Back>
  ) : null;
  if (failed) {
    return (
      <>
        {back}
        <MediaUnavailable kind="video" title={title} />
      </>
    );
  }
  return (
    <>
      {back}
      <PageHeading title={title} />
      <Player
        ref={player}
        controls
        preload="metadata"
        src={src}
        {...(posterUrl ? { poster: posterUrl } : {})}
        aria-label={title}
        data-file={fileName}
        onError={() => setFailed(true)}
      >
        {VIDEO_FALLBACK}
      </Player>
    </>
  );
}
