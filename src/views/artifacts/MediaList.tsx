import { useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import styled from 'styled-components';
import {
  byCaption,
  fileSource,
  mediaLabel,
  posterSource,
  previewSource,
} from '../../machines/artifactLifecycle/artifactSelectors.ts';
import type { Media, MediaKind } from '../../schemas/media.ts';
import { formatClock } from '../../schemas/formatting.ts';
import { viewerState } from '../viewers/viewerOrigin.ts';
import { DocumentIcon, VideoIcon } from './MediaIcons.tsx';
import { theme } from '../theme/theme.ts';

/** An artifact's files, by kind. */
export interface MediaLists {
  images: readonly Media[];
  videos: readonly Media[];
  documents: readonly Media[];
}

export const Tiles = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(150px, 1fr));
  gap: ${theme.space.md};
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const Tile = styled.li`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  min-width: 0;
`;

const TileLink = styled.a`
  display: flex;
  flex-direction: column;
  gap: ${theme.space.xs};
  color: inherit;
  text-decoration: none;
  &:hover span:last-child {
    text-decoration: underline;
  }
`;

const Preview = styled.span`
  position: relative;
  display: flex;
  align-items: center;
  justify-content: center;
  height: 110px;
  border: 1px solid ${theme.color.border};
  border-radius: ${theme.radius.sm};
  background: ${theme.color.surfaceAlt};
  color: ${theme.color.textMuted};
  overflow: hidden;
  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

const Caption = styled.span`
  font-size: ${theme.font.size.sm};
  overflow-wrap: anywhere;
`;

/** Every file of an artifact with its kind, images first, then videos, then documents, each in caption order. */
export function orderedMedia(media: MediaLists): { kind: MediaKind; media: Media }[] {
  return (['images', 'videos', 'documents'] as const).flatMap((kind) =>
    [...media[kind]].sort(byCaption).map((m) => ({ kind, media: m })),
  );
}

const PlayBadge = styled.span`
  position: absolute;
  inset: 0;
  display: flex;
  align-items: center;
  justify-content: center;
  pointer-events: none;
  span {
    display: flex;
    align-items: center;
    justify-content: center;
    width: 40px;
    height: 40px;
    border-radius: ${theme.radius.pill};
    background: rgba(15, 25, 35, 0.72);
    color: #ffffff;
  }
`;

const Duration = styled.span`
  position: absolute;
  right: ${theme.space.xs};
  bottom: ${theme.space.xs};
  padding: 0 ${theme.space.xs};
  border-radius: ${theme.radius.sm};
  background: rgba(15, 25, 35, 0.78);
  color: #ffffff;
  font-size: ${theme.font.size.xs};
  font-variant-numeric: tabular-nums;
  line-height: 1.5;
`;

/**
 * A video's length: the server's (read by ffprobe when it was stored) or, for a video not probed,
 * the browser's, read from the file's metadata only (`preload="metadata"`, never the whole video)
 * once the tile is near the screen.
 */
function useVideoDuration(media: Pick<Media, 'url' | 'duration'>, tile: RefObject<HTMLElement | null>): number | null {
  const [probed, setProbed] = useState<number | null>(null);
  const known = media.duration;
  useEffect(() => {
    if (known !== null || typeof document === 'undefined') return;
    const element = tile.current;
    let video: HTMLVideoElement | null = null;
    const probe = () => {
      video = document.createElement('video');
      video.preload = 'metadata';
      video.muted = true;
      video.addEventListener('loadedmetadata', () => {
        if (video && Number.isFinite(video.duration) && video.duration > 0) setProbed(video.duration);
        video?.removeAttribute('src');
      });
      video.src = fileSource(media.url);
    };
    if (!element || typeof IntersectionObserver === 'undefined') {
      probe();
    } else {
      const observer = new IntersectionObserver(
        (entries) => {
          if (entries.some((e) => e.isIntersecting)) {
            observer.disconnect();
            probe();
          }
        },
        { rootMargin: '200px' },
      );
      observer.observe(element);
      return () => {
        observer.disconnect();
        video?.removeAttribute('src');
      };
    }
    return () => video?.removeAttribute('src');
  }, [known, media.url, tile]);
  return known ?? probed;
}

/**
 * What a file's tile shows inside its link: the picture (a video's with a play badge and its
 * length), then its name; a video's name tells it is a video and how long it is.
 */
export function MediaTileContent({ kind, media }: { kind: MediaKind; media: Media }) {
  const preview = useRef<HTMLSpanElement>(null);
  const video = kind === 'videos';
  const duration = useVideoDuration(video ? media : { url: media.url, duration: 0 }, preview);
  const length = video && duration !== null ? formatClock(duration) : null;
  return (
    <>
      <Preview ref={preview}>
        <MediaPreview kind={kind} media={media} />
        {video ? (
          <PlayBadge aria-hidden="true" data-play-badge="">
            <span>
              <svg width="18" height="18" viewBox="0 0 24 24" focusable="false">
                <path d="M8 5v14l11-7z" fill="currentColor" />
              </svg>
            </span>
          </PlayBadge>
        ) : null}
        {length ? (
          <Duration aria-hidden="true" data-duration="">
            {length}
          </Duration>
        ) : null}
      </Preview>
      <Caption>
        {mediaLabel(media)}
        {video ? (
          <>
            {' '}
            <span className="visually-hidden">{length ? `(video, ${length})` : '(video)'}</span>
          </>
        ) : null}
      </Caption>
    </>
  );
}

/** The picture of one file: a thumbnail (its alt text as `alt`), a video poster, or an icon. */
export function MediaPreview({ kind, media }: { kind: MediaKind; media: Media }) {
  const src = previewSource(media, kind);
  if (src) return <img src={src} alt={kind === 'images' ? media.alt : ''} loading="lazy" />;
  return kind === 'videos' ? <VideoIcon /> : <DocumentIcon />;
}

/**
 * The link of one file: images and videos open in the viewers (`/images/uploads/<capability>/<file>`,
 * `/videos/uploads/<capability>/<file>`), which the link tells the file's name, the artifact's title, the
 * way back here and a video's poster; documents open the file itself.
 */
export function MediaLink({
  kind,
  media,
  artifactTitle,
  children,
}: {
  kind: MediaKind;
  media: Media;
  /** The artifact the file belongs to. */ artifactTitle: string;
  children: ReactNode;
}) {
  const [location] = useLocation();
  const search = useSearch();
  if (kind === 'documents') {
    return <TileLink href={fileSource(media.url)}>{children}</TileLink>;
  }
  // The mobile apps' rule: `/images` or `/videos` + the file's url.
  const href = `/${kind}${media.url}`;
  const state = viewerState({
    title: mediaLabel(media),
    artifactTitle,
    backHref: search ? `${location}?${search}` : location,
    poster: kind === 'videos' ? posterSource(media) : null,
    ...(kind === 'images' && media.alt ? { alt: media.alt } : {}),
  });
  return (
    <Link href={href} state={state} asChild>
      <TileLink>{children}</TileLink>
    </Link>
  );
}

/** An artifact's files as named tiles (videos with a play badge and their length) that open them. */
export function MediaList({
  media,
  artifactTitle,
  empty = 'No files have been uploaded.',
}: {
  media: MediaLists;
  artifactTitle: string;
  empty?: string;
}) {
  const items = orderedMedia(media);
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <Tiles>
      {items.map(({ kind, media: m }) => (
        <Tile key={`${kind}-${m.id}`}>
          <MediaLink kind={kind} media={m} artifactTitle={artifactTitle}>
            <MediaTileContent kind={kind} media={m} />
          </MediaLink>
        </Tile>
      ))}
    </Tiles>
  );
}
