import { useEffect, useRef, useState } from 'react';
import styled from 'styled-components';
import { PageHeading } from '../components/PageHeading.tsx';
import { MediaUnavailable } from '../viewers/MediaUnavailable.tsx';

/** What a browser without video support shows (spec §2). */
export const VIDEO_FALLBACK = 'Your browser does not support the video tag.';

const Player = styled.video`
  display: block;
  width: 100%;
  max-height: calc(100vh - 220px);
  background: #000;
  border-radius: ${({ theme }) => theme.radius.md};
`;

/** The video player (`/videos/uploads/:fileName`). */
export function VideoViewerPage({ src, fileName }: { /** The file's address. */ src: string; /** Shown as the title. */ fileName: string }) {
  const [failed, setFailed] = useState(false);
  const player = useRef<HTMLVideoElement>(null);
  // A file refused before the page was on screen fired its error unheard.
  useEffect(() => {
    if (player.current?.error) setFailed(true);
  }, []);
  if (failed) return <MediaUnavailable kind="video" fileName={fileName} />;
  return (
    <>
      <PageHeading title={fileName} />
      <Player ref={player} controls preload="metadata" src={src} aria-label={fileName} onError={() => setFailed(true)}>
        {VIDEO_FALLBACK}
      </Player>
    </>
  );
}
