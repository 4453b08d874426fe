import { stringify } from 'csv-stringify/browser/esm/sync';
import type { ChartFileRequest } from './insightsMachine.ts';

/** How much larger than on screen a PNG is drawn (sharp on high-density screens and in print). */
const PNG_SCALE = 2;

/** The CSV text of a chart's table: a header row, then its rows (the data table's very numbers). */
export function csvOf(table: ChartFileRequest['table']): string {
  return stringify([table.columns, ...table.rows]);
}

/**
 * The SVG of a chart as a file of its own: the drawn element (`svg[data-chart]`, drawn even while
 * the table is shown), with its namespace and a white background.
 */
export function svgOf(chart: string, root: ParentNode = document): string {
  const svg = root.querySelector<SVGSVGElement>(`svg[data-chart="${chart}"]`);
  if (!svg) throw new Error('The chart is not drawn yet.');
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  copy.removeAttribute('hidden');
  const background = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', '#ffffff');
  copy.insertBefore(background, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

/** Draws an SVG text onto a canvas and answers its PNG. */
async function pngOf(svgText: string, width: number, height: number): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(width * PNG_SCALE);
    canvas.height = Math.round(height * PNG_SCALE);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('This browser cannot draw the picture.');
    context.scale(PNG_SCALE, PNG_SCALE);
    context.drawImage(image, 0, 0, width, height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (blob) => (blob ? resolve(blob) : reject(new Error('The picture could not be made.'))),
        'image/png',
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Hands a file to the browser's downloads. */
function download(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has read the address by the next task.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Makes one file of a chart (its data as CSV, its picture as SVG or PNG) and downloads it; its name. */
export async function saveChartFile(request: ChartFileRequest): Promise<string> {
  if (request.format === 'csv') {
    download(new Blob([csvOf(request.table)], { type: 'text/csv;charset=utf-8' }), request.fileName);
    return request.fileName;
  }
  const svgText = svgOf(request.chart);
  if (request.format === 'svg') {
    download(new Blob([svgText], { type: 'image/svg+xml' }), request.fileName);
    return request.fileName;
  }
  const svg = document.querySelector<SVGSVGElement>(`svg[data-chart="${request.chart}"]`)!;
  const width = Number(svg.getAttribute('width'));
  const height = Number(svg.getAttribute('height'));
  download(await pngOf(svgText, width, height), request.fileName);
  return request.fileName;
}
