/* The names stored media files go by: an upload's `<key><ext>`, the formats of an image or a video's poster. */

/** The image formats the mobile apps read (reference §6.2): fit inside these boxes. */
export const FORMATS = {
  thumbnail: { width: 245, height: 156 },
  small: { width: 500, height: 500 },
  medium: { width: 750, height: 750 },
  large: { width: 1000, height: 1000 },
} as const;

/** The record of formats being made for a stored file (a video's poster): `formats:<key>`. */
export const FORMATS_PENDING = 'formats:';

/** The names a format of an image or poster is stored under. */
export const formatNames = (key: string) => Object.keys(FORMATS).map((format) => `${format}_${key}.jpg`);

/** Whether `fileName` is a plain stored file name (no folder, no hidden file), as served. */
export function isStoredName(fileName: string): boolean {
  return /^[A-Za-z0-9_-]+\.[a-z0-9]{1,5}$/.test(fileName);
}

/** The storage key inside a stored file name (`<key><ext>` or `<format>_<key>.jpg`). */
export function keyOfFile(fileName: string): string | null {
  const match = /^(?:(?:thumbnail|small|medium|large)_)?([A-Za-z0-9_-]{24})(?:\.[a-z0-9]{1,5})?$/.exec(fileName);
  return match ? match[1]! : null;
}
