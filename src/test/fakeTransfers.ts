import { act } from '@testing-library/react';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import type { TransferInput, TransferReport } from '../machines/upload/transferActors.ts';
import type { UploadedMedia } from '../machines/upload/uploadMachine.ts';
import type { UploadQueueEvent } from '../machines/upload/uploadQueueMachine.ts';
import type { RememberedUpload, TransferTarget } from '../services/resumableUploads.ts';

/** A running fake transfer: what it was given, and a way to report as tus-js-client would. */
export interface FakeTransfer {
  input: TransferInput;
  report: (event: TransferReport) => void;
}

/**
 * Transfers (tus) the test answers by hand: each running one is listed until its actor stops
 * (stored, failed, paused or cancelled); `started` counts every start of each file.
 */
export function controllableTransfers() {
  const running: FakeTransfer[] = [];
  const started: string[] = [];
  const logic = fromCallback<EventObject, TransferInput>(({ input, sendBack }) => {
    const transfer: FakeTransfer = { input, report: (event) => sendBack(event) };
    running.push(transfer);
    started.push(input.file.name);
    return () => {
      const index = running.indexOf(transfer);
      if (index >= 0) running.splice(index, 1);
    };
  });
  const of = (name: string): FakeTransfer => {
    const transfer = running.find((t) => t.input.file.name === name);
    if (!transfer) throw new Error(`No upload of ${name} is running`);
    return transfer;
  };
  /** Reports inside `act`, so the view has rendered what follows when it returns. */
  const send = async (name: string, event: TransferReport) => act(async () => of(name).report(event));
  return {
    logic,
    running,
    started,
    pending: (name: string) => running.find((t) => t.input.file.name === name),
    send,
    created: (name: string, uploadUrl = `/api/v1/uploads/tus/${name}`) =>
      send(name, { type: 'transfer.url', uploadUrl }),
    progress: (name: string, sent: number, at = 0) =>
      send(name, { type: 'transfer.progress', sent, total: of(name).input.file.size, at }),
    stored: (name: string, answer: UploadedMedia) => send(name, { type: 'transfer.stored', answer }),
    failed: (name: string, error: unknown) => send(name, { type: 'transfer.failed', error }),
  };
}

/** The connection watchers of uploads that lost it: `back()` tells them all it is back. */
export function controllableConnection() {
  const waiting = new Set<(event: EventObject) => void>();
  const logic = fromCallback<EventObject>(({ sendBack }) => {
    waiting.add(sendBack);
    return () => waiting.delete(sendBack);
  });
  return {
    logic,
    waiting,
    back: async () => act(async () => [...waiting].forEach((send) => send({ type: 'connection.back' }))),
  };
}

/** The remembered uploads' lookup, answered by the test (`found`), and the ones discarded. */
export function controllableRemembered() {
  let report: ((event: UploadQueueEvent) => void) | null = null;
  const asked: TransferTarget[] = [];
  const forgotten: string[] = [];
  const find = fromCallback<EventObject, TransferTarget>(({ input, sendBack }) => {
    asked.push(input);
    report = sendBack;
    return () => {
      report = null;
    };
  });
  const forget = fromPromise<void, { uploadUrl: string; key: string }>(async ({ input }) => {
    forgotten.push(input.key);
  });
  return {
    find,
    forget,
    asked,
    forgotten,
    found: async (uploads: RememberedUpload[]) =>
      act(async () => report?.({ type: 'remembered.found', uploads } satisfies UploadQueueEvent)),
  };
}
