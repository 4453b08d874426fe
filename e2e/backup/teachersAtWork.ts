import { expect } from 'vitest';
import type { Responses } from '#schemas/structure';
import { pngImage } from '../../server/test/files.ts';
import type { Artifact, PortalClient } from './portalClient.ts';

/** One write a simulated teacher sent: when, and how it was answered. */
export interface Write {
  kind: 'save' | 'upload';
  artifactId: number;
  /** The save's number (its answers: `answersFor`), or the upload's. */
  seq: number;
  startedAt: number;
  endedAt: number;
  status: number | null;
  /** The stored medium of an upload answered 200. */
  mediaId: number | null;
}

/** One teacher saving and uploading into one artifact of a personal portfolio. */
export interface Desk {
  name: string;
  client: PortalClient;
  portfolioId: number;
  artifactId: number;
}

/** The answers of save `seq` at `desk` (its name carries the number back). */
export function answersFor(desk: string, seq: number): Responses {
  return {
    artifactName: `${desk} save ${seq}`,
    learningGoal: `${desk}: goal of save ${seq}. ${'Students explain their reasoning with evidence. '.repeat(20)}`,
    nextSteps: `${desk}: next steps of save ${seq}.`,
  };
}

/** The number of the save whose answers an artifact holds (0: none of the desk's). */
export function saveNumberOf(desk: string, responses: Responses): number {
  const name = String(responses['artifactName'] ?? '');
  const match = new RegExp(`^${desk} save (\\d+)$`).exec(name);
  if (!match) return 0;
  const seq = Number(match[1]);
  expect(responses, `the answers of ${desk} are those of one whole save`).toEqual(answersFor(desk, seq));
  return seq;
}

/**
 * Simulated teachers at work: each keeps saving the answers of one artifact and, every fourth
 * write, uploads a new image to it, one write after the other, until stopped.
 */
export class TeachersAtWork {
  readonly writes: Write[] = [];
  private running = false;
  private loops: Promise<void>[] = [];

  constructor(private readonly desks: Desk[]) {}

  start(): void {
    this.running = true;
    this.loops = this.desks.map((desk) => this.work(desk));
  }

  /** Stops after the writes under way; every write sent, in order. */
  async stop(): Promise<Write[]> {
    this.running = false;
    await Promise.all(this.loops);
    return this.writes;
  }

  /** Writes answered 200 between two moments (ms since the epoch). */
  acknowledgedBetween(from: number, to: number): Write[] {
    return this.writes.filter((w) => w.status === 200 && w.startedAt >= from && w.endedAt <= to);
  }

  private async work(desk: Desk): Promise<void> {
    let seq = 0;
    let uploads = 0;
    while (this.running) {
      seq += 1;
      const startedAt = Date.now();
      if (seq % 4 === 0) {
        uploads += 1;
        // Each image differs (its size), so each file's digest names it.
        const image = await pngImage(64 + uploads, 48 + (desk.artifactId % 16));
        const res = await desk.client
          .upload(desk.portfolioId, desk.artifactId, 'images', `${desk.name}-${uploads}.png`, image)
          .catch(() => null);
        this.writes.push({
          kind: 'upload',
          artifactId: desk.artifactId,
          seq: uploads,
          startedAt,
          endedAt: Date.now(),
          status: res?.status ?? null,
          mediaId: res?.status === 200 ? res.body.id : null,
        });
      } else {
        const res = await desk.client
          .call<Artifact>('PUT', `/artifacts/${desk.artifactId}`, { responses: answersFor(desk.name, seq) })
          .catch(() => null);
        this.writes.push({
          kind: 'save',
          artifactId: desk.artifactId,
          seq,
          startedAt,
          endedAt: Date.now(),
          status: res?.status ?? null,
          mediaId: null,
        });
      }
    }
  }
}
