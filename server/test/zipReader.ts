import { inflateRawSync } from 'node:zlib';

/**
 * The files of a ZIP archive, by name (tests): read from its central directory, each entry
 * checked against its local header and inflated (stored or deflated entries, with or without
 * data descriptors, ZIP64 sizes included).
 */
export function readZip(zip: Buffer): Map<string, Buffer> {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a ZIP archive: no end of central directory');
  let entries = zip.readUInt16LE(eocd + 10);
  let offset = zip.readUInt32LE(eocd + 16);
  if (offset === 0xffffffff || entries === 0xffff) {
    const locator = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x06, 0x07]), eocd);
    const record = Number(zip.readBigUInt64LE(locator + 8));
    entries = Number(zip.readBigUInt64LE(record + 32));
    offset = Number(zip.readBigUInt64LE(record + 48));
  }
  const files = new Map<string, Buffer>();
  for (let i = 0; i < entries; i++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`bad central directory entry ${i}`);
    const method = zip.readUInt16LE(offset + 10);
    let compressed = zip.readUInt32LE(offset + 20);
    let size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    let local = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    // ZIP64 extra field: the sizes and offset that did not fit, in this order.
    let extra = offset + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra < extraEnd) {
      const id = zip.readUInt16LE(extra);
      const length = zip.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let at = extra + 4;
        if (size === 0xffffffff) {
          size = Number(zip.readBigUInt64LE(at));
          at += 8;
        }
        if (compressed === 0xffffffff) {
          compressed = Number(zip.readBigUInt64LE(at));
          at += 8;
        }
        if (local === 0xffffffff) local = Number(zip.readBigUInt64LE(at));
      }
      extra += 4 + length;
    }
    if (zip.readUInt32LE(local) !== 0x04034b50) throw new Error(`bad local header for ${name}`);
    const dataStart = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(dataStart, dataStart + compressed);
    const content = method === 0 ? Buffer.from(data) : method === 8 ? inflateRawSync(data) : null;
    if (!content) throw new Error(`unsupported compression ${method} for ${name}`);
    if (content.length !== size) throw new Error(`size of ${name}: ${content.length} instead of ${size}`);
    files.set(name, content);
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
