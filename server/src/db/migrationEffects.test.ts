import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrationFiles } from './migrate.ts';
import { changesExistingData } from './migrationEffects.ts';

const MIGRATIONS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

describe('changesExistingData', () => {
  it.each([
    'CREATE TABLE notes (id integer PRIMARY KEY, body text NOT NULL)',
    'CREATE UNLOGGED TABLE counters (k text PRIMARY KEY)',
    'CREATE UNIQUE INDEX notes_body ON notes (lower(body))',
    "CREATE OR REPLACE FUNCTION ms_now() RETURNS timestamptz AS $$ SELECT date_trunc('milliseconds', now()) $$ LANGUAGE sql",
    'ALTER TABLE artifacts ADD COLUMN saved boolean NOT NULL DEFAULT true',
    'ALTER TABLE comments ADD COLUMN media_id integer REFERENCES media_files (id), ADD CONSTRAINT c CHECK (media_id > 0)',
    'ALTER TABLE auth_events DROP CONSTRAINT auth_events_kind_check',
    "ALTER TABLE users ALTER COLUMN name SET DEFAULT '', ALTER name DROP NOT NULL",
    'DROP INDEX notes_body',
    "COMMENT ON TABLE notes IS 'one, two; three'",
    'CREATE TABLE kinds (id integer PRIMARY KEY); INSERT INTO kinds (id) VALUES (1), (2)',
    "CREATE TABLE place (store text); INSERT INTO place (store) SELECT 'local' WHERE EXISTS (SELECT 1 FROM media_files)",
  ])('keeps existing data: %s', (sql) => {
    expect(changesExistingData(sql)).toBe(false);
  });

  it.each([
    'UPDATE users SET name = trim(name)',
    'DELETE FROM sessions WHERE expires_at < now()',
    'TRUNCATE notifications',
    'DROP TABLE notes',
    'ALTER TABLE notes DROP COLUMN body',
    'ALTER TABLE notes ADD COLUMN kind text, DROP COLUMN body',
    'ALTER TABLE notes ALTER COLUMN body TYPE varchar(100)',
    'ALTER TABLE notes ALTER COLUMN body SET DATA TYPE varchar(100)',
    'ALTER TABLE notes RENAME COLUMN body TO text',
    'ALTER TABLE notes RENAME TO memos',
    "INSERT INTO users (email) VALUES ('a@example.org')",
    'DO $$ BEGIN PERFORM 1; END $$',
    'CREATE TABLE kinds (id integer); ALTER TABLE notes ALTER COLUMN kind TYPE integer USING 1',
    'CREATE TABLE note_history (note_id integer, body text); INSERT INTO note_history (note_id, body) SELECT id, body FROM notes',
  ])('may change existing data: %s', (sql) => {
    expect(changesExistingData(sql)).toBe(true);
  });

  it('finds the migrations so far that change existing data', () => {
    const changing = migrationFiles().filter((file) =>
      changesExistingData(readFileSync(path.join(MIGRATIONS, file), 'utf8')),
    );
    expect(changing).toEqual(['0013_caption_tracks_per_artifact.sql', '0025_artifact_versions.sql']);
  });
});
