import { mediaUrl } from '../../services/mediaService.ts';
import { ImageViewerPage } from '../../views/pages/ImageViewerPage.tsx';
import { VideoViewerPage } from '../../views/pages/VideoViewerPage.tsx';

/** The stored file a viewer address names: a trailing `.html` (the mobile apps' links) is dropped. */
export function viewerFileName(param: string | undefined): string {
  return (param ?? '').replace(/\.html$/i, '');
}

const fileAddress = (name: string): string => mediaUrl(`/uploads/${encodeURIComponent(name)}`);

/** `/images/uploads/:fileName` (public; the file itself is authorised by the session cookie). */
export function ImageViewerRoute({ params }: { params: { fileName?: string } }) {
  const name = viewerFileName(params.fileName);
  return <ImageViewerPage key={name} src={fileAddress(name)} fileName={name} />;
}

/** `/videos/uploads/:fileName` (public; the file itself is authorised by the session cookie). */
export function VideoViewerRoute({ params }: { params: { fileName?: string } }) {
  const name = viewerFileName(params.fileName);
  return <VideoViewerPage key={name} src={fileAddress(name)} fileName={name} />;
}
