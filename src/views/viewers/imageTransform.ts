/** Zoom and rotation of the image viewer (spec §9: minimum zoom 0.25, four rotations). */

export const MIN_ZOOM = 0.25;
export const MAX_ZOOM = 8;
/** The stops the zoom buttons move between. */
export const ZOOM_STOPS = [0.25, 0.5, 0.75, 1, 1.5, 2, 3, 4, 6, 8] as const;

export interface ImageTransform {
  zoom: number;
  /** Quarter turns clockwise: 0, 1, 2 or 3. */
  rotation: 0 | 1 | 2 | 3;
}

export type TransformAction =
  | { type: 'zoomIn' }
  | { type: 'zoomOut' }
  | { type: 'zoomBy'; factor: number }
  | { type: 'rotateLeft' }
  | { type: 'rotateRight' }
  | { type: 'reset' };

export const INITIAL_TRANSFORM: ImageTransform = { zoom: 1, rotation: 0 };

const clampZoom = (zoom: number): number => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round(zoom * 1000) / 1000));
const turn = (rotation: number, by: number): ImageTransform['rotation'] =>
  ((((rotation + by) % 4) + 4) % 4) as ImageTransform['rotation'];

/** The next transform after a button, key, wheel or pinch. */
export function transformReducer(state: ImageTransform, action: TransformAction): ImageTransform {
  switch (action.type) {
    case 'zoomIn':
      return { ...state, zoom: ZOOM_STOPS.find((stop) => stop > state.zoom + 1e-9) ?? MAX_ZOOM };
    case 'zoomOut':
      return { ...state, zoom: [...ZOOM_STOPS].reverse().find((stop) => stop < state.zoom - 1e-9) ?? MIN_ZOOM };
    case 'zoomBy':
      return { ...state, zoom: clampZoom(state.zoom * action.factor) };
    case 'rotateLeft':
      return { ...state, rotation: turn(state.rotation, -1) };
    case 'rotateRight':
      return { ...state, rotation: turn(state.rotation, 1) };
    case 'reset':
      return INITIAL_TRANSFORM;
  }
}
