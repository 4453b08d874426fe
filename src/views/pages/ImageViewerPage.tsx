import {
  useEffect,
  useLayoutEffect,
  useReducer,
  useRef,
  useState,
  type PointerEvent,
  type SyntheticEvent,
} from 'react';
import styled from 'styled-components';
import { Button } from '../components/Button.tsx';
import { PageHeading } from '../components/PageHeading.tsx';
import {
  INITIAL_TRANSFORM,
  MAX_ZOOM,
  MIN_ZOOM,
  transformReducer,
  type TransformAction,
} from '../viewers/imageTransform.ts';
import { MediaUnavailable } from '../viewers/MediaUnavailable.tsx';
import { useViewedFile } from '../../machines/viewedFile/useViewedFile.ts';
import { ViewerBack } from '../viewers/ViewerBack.tsx';
import { useViewerOrigin } from '../viewers/viewerOrigin.ts';
import { theme } from '../theme/theme.ts';

/** The title of an image whose name the viewer does not know (never the stored file's name). */
export const UNNAMED_IMAGE = 'Image';

const Toolbar = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${theme.space.sm};
  margin-bottom: ${theme.space.sm};
`;

const Status = styled.p`
  margin: 0 0 0 auto;
  color: ${theme.color.textMuted};
  font-variant-numeric: tabular-nums;
`;

const Keys = styled.p`
  margin: 0 0 ${theme.space.sm};
  color: ${theme.color.textMuted};
  font-size: ${theme.font.size.sm};
`;

const Viewport = styled.div<{ $dragging: boolean }>`
  display: flex;
  height: calc(100vh - 260px);
  min-height: 280px;
  overflow: auto;
  background: #20262d;
  border-radius: ${theme.radius.md};
  cursor: ${({ $dragging }) => ($dragging ? 'grabbing' : 'grab')};
  /* The viewer handles one-finger panning and two-finger pinches itself. */
  touch-action: none;
  @media ${theme.media.phone} {
    height: calc(100vh - 300px);
  }
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

const KEY_ACTIONS: Readonly<Record<string, Exclude<TransformAction['type'], 'zoomBy'>>> = {
  '+': 'zoomIn',
  '=': 'zoomIn',
  '-': 'zoomOut',
  _: 'zoomOut',
  '0': 'reset',
  r: 'rotateRight',
  R: 'rotateLeft',
  l: 'rotateLeft',
  L: 'rotateLeft',
};

const PAN_STEP = 48;
const PAN_KEYS: Readonly<Record<string, [number, number]>> = {
  ArrowLeft: [-PAN_STEP, 0],
  ArrowRight: [PAN_STEP, 0],
  ArrowUp: [0, -PAN_STEP],
  ArrowDown: [0, PAN_STEP],
};

/** Whether a key press belongs to a control that uses it (typing, a button's Space). */
const isControl = (target: EventTarget | null): boolean =>
  target instanceof HTMLElement &&
  (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The image viewer (`/images/uploads/:fileName`): the file at its fitted size with zoom in and
 * out (down to 25 %), reset and rotation in quarter turns, by buttons, keys anywhere on the page
 * (+ − 0 R L, arrows to move), the mouse wheel, a trackpad or two-finger pinch, and dragging to
 * pan. It is named by the file's own name and links back to the artifact it was opened from;
 * opened from a bare link (as the mobile apps open files) it asks the server for the file's name
 * and the artifact it belongs to, and falls back on "Image" and the browser's Back.
 */
export function ImageViewerPage({
  src,
  fileName,
  capability = null,
}: {
  /** The file's address. */
  src: string;
  /** The stored file's name (not shown). */
  fileName: string;
  /** The capability part of the file's address (to ask the server about the file when opened from a bare link). */
  capability?: string | null;
}) {
  const origin = useViewerOrigin();
  const viewed = useViewedFile(origin ? null : capability, fileName);
  const title = origin?.title ?? viewed?.name ?? UNNAMED_IMAGE;
  const alt = origin?.alt ?? (viewed?.alt || title);
  const [transform, dispatch] = useReducer(transformReducer, INITIAL_TRANSFORM);
  const [fitted, setFitted] = useState<Size | null>(null);
  const [failed, setFailed] = useState(false);
  const [dragging, setDragging] = useState(false);
  const viewport = useRef<HTMLDivElement>(null);
  const drag = useRef<{ x: number; y: number; left: number; top: number } | null>(null);
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const pinch = useRef<number | null>(null);
  /** The point (in the viewport) that should stay under the pointer while zooming. */
  const focus = useRef<{ x: number; y: number; left: number; top: number; width: number; height: number } | null>(null);
  const { zoom, rotation } = transform;

  /** Zooms by a factor about a point of the viewport (the pointer; the middle by default). */
  const zoomAt = (factor: number, clientX?: number, clientY?: number) => {
    const box = viewport.current;
    if (box) {
      const rect = box.getBoundingClientRect();
      focus.current = {
        x: clientX === undefined ? box.clientWidth / 2 : clientX - rect.left,
        y: clientY === undefined ? box.clientHeight / 2 : clientY - rect.top,
        left: box.scrollLeft,
        top: box.scrollTop,
        width: box.scrollWidth,
        height: box.scrollHeight,
      };
    }
    dispatch({ type: 'zoomBy', factor });
  };

  // After a zoom, scroll so that the point under the pointer stays where it was.
  useLayoutEffect(() => {
    const box = viewport.current;
    const at = focus.current;
    focus.current = null;
    if (!box || !at || at.width === 0 || at.height === 0) return;
    box.scrollLeft = ((at.left + at.x) / at.width) * box.scrollWidth - at.x;
    box.scrollTop = ((at.top + at.y) / at.height) * box.scrollHeight - at.y;
  }, [zoom]);

  // The wheel zooms (a trackpad pinch arrives as a wheel with Ctrl); the listener must not be
  // passive to keep the page from scrolling or zooming.
  useEffect(() => {
    const element = viewport.current;
    if (!element) return undefined;
    const handleWheel = (event: WheelEvent) => {
      event.preventDefault();
      const speed = event.ctrlKey ? 0.01 : 0.002;
      const delta = event.deltaMode === 1 ? event.deltaY * 16 : event.deltaY;
      zoomAt(Math.exp(-delta * speed), event.clientX, event.clientY);
    };
    element.addEventListener('wheel', handleWheel, { passive: false });
    return () => element.removeEventListener('wheel', handleWheel);
  }, []);

  // The keys work wherever the focus is on the page (not only on the image), except in a control that uses them.
  useEffect(() => {
    const handleKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented || isControl(event.target)) return;
      const action = KEY_ACTIONS[event.key];
      if (action) {
        event.preventDefault();
        dispatch({ type: action });
        return;
      }
      const pan = PAN_KEYS[event.key];
      const box = viewport.current;
      // On the image itself the browser scrolls it already.
      if (pan && box && event.target !== box) {
        event.preventDefault();
        box.scrollBy(pan[0], pan[1]);
      }
    };
    document.addEventListener('keydown', handleKeyDown);
    return () => document.removeEventListener('keydown', handleKeyDown);
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

  const handlePointerDown = (event: PointerEvent<HTMLDivElement>) => {
    const box = viewport.current;
    if (!box || (event.pointerType === 'mouse' && event.button !== 0)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    box.setPointerCapture?.(event.pointerId);
    if (pointers.current.size === 2) {
      // A second finger: a pinch begins, the pan stops.
      const [a, b] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
      pinch.current = Math.hypot(a.x - b.x, a.y - b.y);
      drag.current = null;
      setDragging(false);
      return;
    }
    drag.current = { x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop };
    setDragging(true);
  };
  const handlePointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const box = viewport.current;
    if (!box || !pointers.current.has(event.pointerId)) return;
    pointers.current.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.current.size === 2 && pinch.current) {
      const [a, b] = [...pointers.current.values()] as [{ x: number; y: number }, { x: number; y: number }];
      const distance = Math.hypot(a.x - b.x, a.y - b.y);
      if (distance > 0) zoomAt(distance / pinch.current, (a.x + b.x) / 2, (a.y + b.y) / 2);
      pinch.current = distance;
      return;
    }
    if (!drag.current) return;
    box.scrollLeft = drag.current.left - (event.clientX - drag.current.x);
    box.scrollTop = drag.current.top - (event.clientY - drag.current.y);
  };
  const endPointer = (event: PointerEvent<HTMLDivElement>) => {
    pointers.current.delete(event.pointerId);
    if (pointers.current.size < 2) pinch.current = null;
    drag.current = null;
    setDragging(false);
  };

  const back = <ViewerBack origin={origin} viewed={viewed} />;

  if (failed) {
    return (
      <>
        {back}
        <MediaUnavailable kind="image" title={title} />
      </>
    );
  }

  const turned = rotation % 2 === 1;
  const width = fitted ? fitted.width * zoom : null;
  const height = fitted ? fitted.height * zoom : null;
  const stage =
    width !== null && height !== null ? { width: turned ? height : width, height: turned ? width : height } : undefined;
  return (
    <>
      {back}
      <PageHeading title={title} />
      <Toolbar role="toolbar" aria-label="Image controls">
        <Button
          type="button"
          $variant="secondary"
          onClick={() => dispatch({ type: 'zoomIn' })}
          disabled={zoom >= MAX_ZOOM}
        >
          Zoom in
        </Button>
        <Button
          type="button"
          $variant="secondary"
          onClick={() => dispatch({ type: 'zoomOut' })}
          disabled={zoom <= MIN_ZOOM}
        >
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
      <Keys id="image-viewer-keys">
        Keys: + and − zoom, 0 resets, R and L rotate, arrow keys move the image. The wheel and a pinch zoom too.
      </Keys>
      <Viewport
        ref={viewport}
        tabIndex={0}
        role="group"
        aria-label={`Image ${title}`}
        aria-describedby="image-viewer-keys"
        data-file={fileName}
        $dragging={dragging}
        onPointerDown={handlePointerDown}
        onPointerMove={handlePointerMove}
        onPointerUp={endPointer}
        onPointerCancel={endPointer}
      >
        <Stage style={stage}>
          <Picture
            ref={picture}
            src={src}
            alt={alt}
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
