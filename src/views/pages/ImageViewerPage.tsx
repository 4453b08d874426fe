import { useEffect, useReducer, useRef, useState, type KeyboardEvent, type PointerEvent, type SyntheticEvent } from 'react';
import styled from 'styled-components';
import { Button } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import { INITIAL_TRANSFORM, MAX_ZOOM, MIN_ZOOM, transformReducer } from '../viewers/imageTransform.ts';
import { MediaUnavailable } from '../viewers/MediaUnavailable.tsx';

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  margin-bottom: ${({ theme }) => theme.space.sm};
`;

const Status = styled.p`
  margin: 0 0 0 auto;
  color: ${({ theme }) => theme.color.textMuted};
  font-variant-numeric: tabular-nums;
`;

const Keys = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.sm};
  color: ${({ theme }) => theme.color.textMuted};
  font-size: ${({ theme }) => theme.font.size.sm};
`;

const Viewport = styled.div<{ $dragging: boolean }>`
  display: flex;
  height: calc(100vh - 260px);
  min-height: 320px;
  overflow: auto;
  background: #20262d;
  border-radius: ${({ theme }) => theme.radius.md};
  cursor: ${({ $dragging }) => ($dragging ? 'grabbing' : 'grab')};
  touch-action: pan-x pan-y;
`;

const Stage = styled.div`
  position: relative;
  flex-shrink: 0;
  margin: auto;
  min-width: 1px;
  min-height: 1px;
`;

const Picture = styled.img`
  position: absolute;
  left: 50%;
  top: 50%;
  max-width: none;
  user-select: none;
  transition: transform 150ms ease;
`;

interface Size {
  width: number;
  height: number;
}

/**
 * The image viewer (`/images/uploads/:fileName`): the file at its fitted size with zoom in and
 * out (down to 25 %), reset and rotation in quarter turns, by buttons, keys (+ − 0 R L), the
 * mouse wheel with Ctrl or a pinch, and dragging to pan.
 */
export function ImageViewerPage({ src, fileName }: { /** The file's address. */ src: string; /** Shown as the title and the alt text. */ fileName: string }) {
  const [transform, dispatch] = useReducer(transformReducer, INITIAL_TRANSFORM);
  const [fitted, setFitted] = useState<Size | null>(null);
  const [failed, setFailed] = useState(false);
  const [dragging, setDragging] = useState(false);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const { zoom, rotation } = transform;

  // Ctrl + wheel and trackpad pinches zoom; the listener must not be passive to keep the page from zooming.
  useEffect(() => {
    const element = viewport.current;
    if (!element) return undefined;
    const handleWheel = (event: WheelEvent) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      dispatch({ type: 'zoomBy', factor: Math.exp(-event.deltaY * 0.01) });
    };
    element.addEventListener('wheel', handleWheel, { passive: false });
    return () => element.removeEventListener('wheel', handleWheel);
  }, []);

  const fit = (image: HTMLImageElement) => {
    const { naturalWidth, naturalHeight } = image;
    const box = viewport.current;
    if (!naturalWidth || !naturalHeight || !box) return;
    const scale = Math.min(1, box.clientWidth / naturalWidth || 1, box.clientHeight / naturalHeight || 1);
    setFitted({ width: naturalWidth * scale, height: naturalHeight * scale });
  };
  const handleLoad = (event: SyntheticEvent<HTMLImageElement>) => fit(event.currentTarget);

  // A file that loaded (or failed) before the page was on screen fired its event unheard.
  const picture = useRef<HTMLImageElement>(null);
  useEffect(() => {
    const image = picture.current;
    if (!image?.complete) return;
    if (image.naturalWidth === 0) setFailed(true);
    else fit(image);
    // Once, for the file of this page (the page is keyed by its file).
    // oxlint-disable-next-line react/exhaustive-deps
  }, []);

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const action = (
      { '+': 'zoomIn', '=': 'zoomIn', '-': 'zoomOut', _: 'zoomOut', '0': 'reset', r: 'rotateRight', R: 'rotateLeft', l: 'rotateLeft', L: 'rotateLeft' } as const
    )[event.key as '+'];
    if (!action) return;
    event.preventDefault();
    dispatch({ type: action });
  };

  const handlePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const box = viewport.current;
    if (event.button !== 0 || !box) return;
    drag.current = { x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop };
    setDragging(true);
    box.setPointerCapture?.(event.pointerId);
  };
  const handlePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const box = viewport.current;
    if (!drag.current || !box) return;
    box.scrollLeft = drag.current.left - (event.clientX - drag.current.x);
    box.scrollTop = drag.current.top - (event.clientY - drag.current.y);
  };
  const endDrag = () => {
    drag.current = null;
    setDragging(false);
  };

  if (failed) return <MediaUnavailable kind="image" fileName={fileName} />;

  const turned = rotation % 2 === 1;
  const width = fitted ? fitted.width * zoom : null;
  const height = fitted ? fitted.height * zoom : null;
  const stage = width !== null && height !== null ? { width: turned ? height : width, height: turned ? width : height } : undefined;
  return (
    <>
      <PageHeading title={fileName} />
      <Toolbar role="toolbar" aria-label="Image controls">
        <Button type="button" $variant="secondary" onClick={() => dispatch({ type: 'zoomIn' })} disabled={zoom >= MAX_ZOOM}>
          Zoom in
        </Button>
        <Button type="button" $variant="secondary" onClick={() => dispatch({ type: 'zoomOut' })} disabled={zoom <= MIN_ZOOM}>
          Zoom out
        </Button>
        <Button type="button" $variant="secondary" onClick={() => dispatch({ type: 'reset' })}>
          Reset
        </Button>
        <Button type="button" $variant="secondary" onClick={() => dispatch({ type: 'rotateLeft' })}>
          Rotate left
        </Button>
        <Button type="button" $variant="secondary" onClick={() => dispatch({ type: 'rotateRight' })}>
          Rotate right
        </Button>
        <Status role="status">
          Zoom {Math.round(zoom * 100)}% · Rotation {rotation * 90}°
        </Status>
      </Toolbar>
      <Keys id="image-viewer-keys">Keys: + and − zoom, 0 resets, R and L rotate, arrow keys move the image.</Keys>
      <Viewport
        ref={viewport}
        tabIndex={0}
        role="group"
        aria-label={`Image ${fileName}`}
        aria-describedby="image-viewer-keys"
        $dragging={dragging}
        onKeyDown={handleKeyDown}
        onPointerDown={handlePointerDown}
        onPointerMove={handlePointerMove}
        onPointerUp={endDrag}
        onPointerCancel={endDrag}
      >
        <Stage style={stage}>
          <Picture
            ref={picture}
            src={src}
            alt={fileName}
            draggable={false}
            className={`rotation-${rotation}`}
            data-zoom={zoom}
            onLoad={handleLoad}
            onError={() => setFailed(true)}
            style={{
              ...(width !== null && height !== null ? { width, height } : {}),
              transform: `translate(-50%, -50%) rotate(${rotation * 90}deg)${fitted ? '' : ` scale(${zoom})`}`,
            }}
          />
        </Stage>
      </Viewport>
    </>
  );
}
