import { mediaUrl } from '../../services/mediaService.ts';
import { ImageViewerPage } from '../../views/pages/ImageViewerPage.tsx';
import { VideoViewerPage } from '../../views/pages/VideoViewerPage.tsx';

/** The stored file a viewer address names: a trailing `.html` (the mobile apps' links) is dropped. */
export function viewerFileName(param: string | undefined): string {
  return (param ?? '').replace(/\.html$/i, '');
}

/** The file a viewer address names: `<capability>/<file>` after `/uploads/`, each part as a path segment. */
function viewed(rest: string | undefined): { src: string; name: string; capability: string | null } {
  const parts = viewerFileName(rest).split('/').filter(Boolean);
  return {
    src: mediaUrl(`/uploads/${parts.map(encodeURIComponent).join('/')}`),
    name: parts.at(-1) ?? '',
    capability: parts.length === 2 ? parts[0]! : null,
  };
}

/** `/images/uploads/<capability>/<file>` (public; the address itself is the file's capability). */
export function ImageViewerRoute({ params }: { params: { '*'?: string } }) {
  const { src, name, capability } = viewed(params['*']);
  return <ImageViewerPage key={src} src={src} fileName={name} capability={capability} />;
}

/** `/videos/uploads/<capability>/<file>` (public; the address itself is the file's capability). */
export function VideoViewerRoute({ params }: { params: { '*'?: string } }) {
  const { src, name } = viewed(params['*']);
  return <VideoViewerPage key={src} src={src} fileName={name} />;
}
