import type { ReactNode } from 'react';
import { Link, useLocation, useSearch } from 'wouter';
import styled from 'styled-components';
import { byCaption, fileSource, mediaLabel, posterSource, previewSource } from '../../machines/artifactLifecycle/artifactSelectors.ts';
import type { Media, MediaKind } from '../../schemas/media.ts';
import { viewerState } from '../viewers/viewerOrigin.ts';
import { DocumentIcon, VideoIcon } from './MediaIcons.tsx';

/** An artifact's files, by kind. */
export interface MediaLists {
  images: readonly Media[];
  videos: readonly Media[];
  documents: readonly Media[];
}

export const Tiles = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(150px, 1fr));
  gap: ${({ theme }) => theme.space.md};
  margin: 0;
  padding: 0;
  list-style: none;
`;

export const Tile = styled.li`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};
  min-width: 0;
`;

const TileLink = styled.a`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.xs};
  color: inherit;
  text-decoration: none;
  &:hover span:last-child { text-decoration: underline; }
`;

export const Preview = styled.span`
  display: flex;
  align-items: center;
  justify-content: center;
  height: 110px;
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.color.surfaceAlt};
  color: ${({ theme }) => theme.color.textMuted};
  overflow: hidden;
  img { width: 100%; height: 100%; object-fit: cover; }
`;

export const Caption = styled.span`
  font-size: ${({ theme }) => theme.font.size.sm};
  overflow-wrap: anywhere;
`;

/** Every file of an artifact with its kind, images first, then videos, then documents, each in caption order. */
export function orderedMedia(media: MediaLists): { kind: MediaKind; media: Media }[] {
  return (['images', 'videos', 'documents'] as const).flatMap((kind) => [...media[kind]].sort(byCaption).map((m) => ({ kind, media: m })));
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
export function MediaLink({ kind, media, artifactTitle, children }: { kind: MediaKind; media: Media; /** The artifact the file belongs to. */ artifactTitle: string; children: ReactNode }) {
  const [location] = useLocation();
  const search = useSearch();
  if (kind === 'documents') {
    return (
      <TileLink href={fileSource(media.url)}>
        {children}
      </TileLink>
    );
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

/** An artifact's files as captioned tiles ('<caption>. <name>') that open them. */
export function MediaList({ media, artifactTitle, empty = 'No files have been uploaded.' }: { media: MediaLists; artifactTitle: string; empty?: string }) {
  const items = orderedMedia(media);
  if (items.length === 0) return <p>{empty}</p>;
  return (
    <Tiles>
      {items.map(({ kind, media: m }) => (
        <Tile key={`${kind}-${m.id}`}>
          <MediaLink kind={kind} media={m} artifactTitle={artifactTitle}>
            <Preview>
              <MediaPreview kind={kind} media={m} />
            </Preview>
            <Caption>{mediaLabel(m)}</Caption>
          </MediaLink>
        </Tile>
      ))}
    </Tiles>
  );
}
