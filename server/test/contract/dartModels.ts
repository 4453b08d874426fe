/**
 * The mobile app's model decoders, restated as checks: each reads a JSON answer the way the
 * app's Dart code does (`lib/models/…` of the original app, `mobile-contract.md`) and throws
 * where Dart would throw — a wrong type is a crash on a teacher's phone. The checks follow the
 * Dart casts exactly: `"${json['x']}"` takes anything; `json['x']['id']` needs a map;
 * `DateTime.parse` needs an ISO string; `bool`, `List` and `Map` fields need exactly that.
 */

type Json = unknown;
type JsonMap = Record<string, Json>;

/** A Dart decoding failure at a path of the answer. */
export class DartTypeError extends Error {}

const fail = (path: string, need: string, value: Json): never => {
  throw new DartTypeError(`${path}: the app needs ${need}, got ${JSON.stringify(value)?.slice(0, 120)}`);
};

export function map(value: Json, path: string): JsonMap {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) fail(path, 'a map', value);
  return value as JsonMap;
}

export function list(value: Json, path: string): Json[] {
  if (!Array.isArray(value)) fail(path, 'a List', value);
  return value as Json[];
}

function bool(value: Json, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'a bool', value);
  return value as boolean;
}

function string(value: Json, path: string): string {
  if (typeof value !== 'string') fail(path, 'a String', value);
  return value as string;
}

function int(value: Json, path: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) fail(path, 'an int', value);
  return value as number;
}

/** `DateTime.parse`: an ISO 8601 string. */
function isoDate(value: Json, path: string): void {
  if (
    typeof value !== 'string' ||
    !/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value) ||
    Number.isNaN(Date.parse(value))
  ) {
    fail(path, 'an ISO date String (DateTime.parse)', value);
  }
}

/** `json['x'].runtimeType == int ? json['x'] : json['x']['id']`: an int, or a map with an id (a String id throws). */
function intOrMapWithId(value: Json, path: string): void {
  if (typeof value === 'number' && Number.isInteger(value)) return;
  if (map(value, path)['id'] === undefined) fail(`${path}.id`, 'an id', undefined);
}

/** `"${json['x']}"`: anything, but the app shows it, so a missing value would read "null". */
function shown(value: Json, path: string): void {
  if (value === undefined) fail(path, 'a value (a missing one shows as "null")', value);
}

const QUESTION_TYPES = [
  'fileUpload',
  'number',
  'shortText',
  'longText',
  'singleSelection',
  'multipleResponse',
  'expansionPanelChoices',
] as const;
const CHOICE_TYPES = new Set(['singleSelection', 'multipleResponse', 'expansionPanelChoices']);

/** `Question.fromStructure`: each row a map of a known type; choice types carry a List of Strings. */
export function decodeStructure(value: Json, path: string): JsonMap[] {
  return list(value, path).map((row, i) => {
    const q = map(row, `${path}[${i}]`);
    if (!QUESTION_TYPES.includes(q['type'] as (typeof QUESTION_TYPES)[number]))
      fail(`${path}[${i}].type`, `one of ${QUESTION_TYPES.join(', ')}`, q['type']);
    shown(q['key'], `${path}[${i}].key`);
    if (CHOICE_TYPES.has(q['type'] as string))
      list(q['choices'], `${path}[${i}].choices`).forEach((c, j) => string(c, `${path}[${i}].choices[${j}]`));
    return q;
  });
}

/** `TextResponsesRemote`: every answer whose key is in the structure, cast by its question's type. */
export function decodeResponses(responses: Json, structure: JsonMap[], path: string): void {
  if (responses === null || responses === undefined) return;
  const answers = map(responses, path);
  for (const q of structure) {
    const key = String(q['key']);
    if (!(key in answers)) continue;
    const value = answers[key];
    if (value === null) continue;
    const at = `${path}.${key}`;
    if (q['type'] === 'fileUpload') fail(at, 'no answer for a fileUpload question', value);
    else if (q['type'] === 'number') int(value, at);
    else if (q['type'] === 'multipleResponse' || q['type'] === 'expansionPanelChoices') list(value, at);
    else string(value, at);
  }
}

/** `FileResponseRemote.fromResponse`; images also read all three formats unconditionally. */
export function decodeFile(value: Json, path: string, kind: 'images' | 'videos' | 'documents'): JsonMap {
  const f = map(value, path);
  shown(f['id'], `${path}.id`);
  isoDate(f['created_at'], `${path}.created_at`);
  string(f['name'], `${path}.name`);
  if (typeof f['size'] !== 'number') fail(`${path}.size`, 'a num (KB)', f['size']);
  string(f['url'], `${path}.url`);
  if (kind === 'images') {
    const formats = map(f['formats'], `${path}.formats`);
    for (const format of ['large', 'medium', 'thumbnail'])
      string(map(formats[format], `${path}.formats.${format}`)['url'], `${path}.formats.${format}.url`);
  }
  return f;
}

function decodeFiles(a: JsonMap, path: string): void {
  for (const kind of ['documents', 'images', 'videos'] as const) {
    if (a[kind] === null || a[kind] === undefined) continue;
    list(a[kind], `${path}.${kind}`).forEach((f, i) => decodeFile(f, `${path}.${kind}[${i}]`, kind));
  }
}

/** `AuthUser.fromJson`. */
export function decodeAuthUser(value: Json, path = 'user'): JsonMap {
  const u = map(value, path);
  shown(u['id'], `${path}.id`);
  shown(u['username'], `${path}.username`);
  shown(u['email'], `${path}.email`);
  bool(u['confirmed'], `${path}.confirmed`);
  bool(u['blocked'], `${path}.blocked`);
  const role = map(u['role'], `${path}.role`);
  for (const key of ['id', 'name', 'description']) shown(role[key], `${path}.role.${key}`);
  isoDate(u['created_at'], `${path}.created_at`);
  isoDate(u['updated_at'], `${path}.updated_at`);
  return u;
}

/** `Portfolio.fromJson`. */
export function decodePortfolio(value: Json, path: string): JsonMap {
  const p = map(value, path);
  shown(p['id'], `${path}.id`);
  list(p['artifacts'], `${path}.artifacts`).forEach((a, i) =>
    shown(map(a, `${path}.artifacts[${i}]`)['id'], `${path}.artifacts[${i}].id`),
  );
  isoDate(p['created_at'], `${path}.created_at`);
  isoDate(p['updated_at'], `${path}.updated_at`);
  list(p['grades'], `${path}.grades`);
  for (const key of ['name', 'subject', 'topic']) if (!(key in p)) fail(`${path}.${key}`, 'a value to show', undefined);
  decodeStructure(p['structure'], `${path}.structure`);
  return p;
}

/** `SharedPortfolio.fromJson`. */
export function decodeSharedPortfolio(value: Json, path: string): JsonMap {
  const p = map(value, path);
  shown(p['id'], `${path}.id`);
  list(p['sharedArtifacts'], `${path}.sharedArtifacts`).forEach((a, i) =>
    shown(map(a, `${path}.sharedArtifacts[${i}]`)['id'], `${path}.sharedArtifacts[${i}].id`),
  );
  const count = p['commentCount'];
  if (!Number.isInteger(Number.parseInt(String(count), 10)) || !/^-?\d+$/.test(String(count)))
    fail(`${path}.commentCount`, 'an int (int.parse)', count);
  shown(map(p['owner'], `${path}.owner`)['id'], `${path}.owner.id`);
  isoDate(p['created_at'], `${path}.created_at`);
  isoDate(p['updated_at'], `${path}.updated_at`);
  list(p['grades'], `${path}.grades`);
  for (const key of ['name', 'subject', 'topic', 'plcName', 'plcGoals'])
    if (!(key in p)) fail(`${path}.${key}`, 'a value to show', undefined);
  decodeStructure(p['structure'], `${path}.structure`);
  return p;
}

/** `Artifact.fromJson` (and `Artifacts.listFromArtifacts`). */
export function decodeArtifact(value: Json, path: string): JsonMap {
  const a = map(value, path);
  intOrMapWithId(a['portfolio'], `${path}.portfolio`);
  shown(a['id'], `${path}.id`);
  isoDate(a['created_at'], `${path}.created_at`);
  isoDate(a['updated_at'], `${path}.updated_at`);
  bool(a['parkingLot'], `${path}.parkingLot`);
  const structure = decodeStructure(a['structure'], `${path}.structure`);
  decodeResponses(a['responses'], structure, `${path}.responses`);
  decodeFiles(a, path);
  return a;
}

/** `SharedArtifact.fromJson`. */
export function decodeSharedArtifact(value: Json, path: string): JsonMap {
  const a = map(value, path);
  intOrMapWithId(a['sharedPortfolio'], `${path}.sharedPortfolio`);
  shown(a['id'], `${path}.id`);
  isoDate(a['created_at'], `${path}.created_at`);
  isoDate(a['updated_at'], `${path}.updated_at`);
  const owner = map(a['owner'], `${path}.owner`);
  for (const key of ['id', 'email', 'username']) shown(owner[key], `${path}.owner.${key}`);
  const structure = decodeStructure(a['structure'], `${path}.structure`);
  decodeResponses(a['responses'], structure, `${path}.responses`);
  decodeFiles(a, path);
  return a;
}

function decodeDiscussion(value: Json, path: string): JsonMap {
  const c = map(value, path);
  shown(c['id'], `${path}.id`);
  isoDate(c['created_at'], `${path}.created_at`);
  isoDate(c['updated_at'], `${path}.updated_at`);
  const owner = map(c['owner'], `${path}.owner`);
  for (const key of ['id', 'email', 'username']) shown(owner[key], `${path}.owner.${key}`);
  shown(map(c['sharedArtifact'], `${path}.sharedArtifact`)['id'], `${path}.sharedArtifact.id`);
  return c;
}

/** `SharedArtifactsComment.fromJson`. */
export function decodeComment(value: Json, path: string): JsonMap {
  const c = decodeDiscussion(value, path);
  shown(c['text'], `${path}.text`);
  return c;
}

/** `SharedArtifactsReaction.fromJson`. */
export function decodeReaction(value: Json, path: string): JsonMap {
  const r = decodeDiscussion(value, path);
  shown(r['value'], `${path}.value`);
  return r;
}

/** `NotificationsListItem.fromJson`. */
export function decodeNotification(value: Json, path: string): JsonMap {
  const n = map(value, path);
  for (const key of ['messageId', 'title', 'body']) shown(n[key], `${path}.${key}`);
  const destination = map(
    JSON.parse(string(n['destination'], `${path}.destination`)) as Json,
    `${path}.destination (decoded)`,
  );
  const params = map(destination['params'], `${path}.destination.params`);
  int(params['sharedArtifactId'], `${path}.destination.params.sharedArtifactId`);
  int(params['sharedPortfolioId'], `${path}.destination.params.sharedPortfolioId`);
  bool(n['viewed'], `${path}.viewed`);
  int(n['sent'], `${path}.sent`);
  return n;
}

/** `ContactInfo`: a map whose `email` and `phone` are Strings or null. */
export function decodeContact(value: Json, path = 'contact'): JsonMap {
  const c = map(value, path);
  for (const key of ['email', 'phone']) if (c[key] !== undefined && c[key] !== null) string(c[key], `${path}.${key}`);
  return c;
}

/** The login answer: `jwt` and the user with the six lists the offline cache is built from. */
export function decodeLoginBundle(value: Json): JsonMap {
  const body = map(value, 'login');
  string(body['jwt'], 'login.jwt');
  const user = decodeAuthUser(body['user'], 'login.user');
  list(user['portfolios'], 'user.portfolios').forEach((p, i) => decodePortfolio(p, `user.portfolios[${i}]`));
  list(user['sharedPortfolios'], 'user.sharedPortfolios').forEach((p, i) =>
    decodeSharedPortfolio(p, `user.sharedPortfolios[${i}]`),
  );
  list(user['artifacts'], 'user.artifacts').forEach((a, i) => decodeArtifact(a, `user.artifacts[${i}]`));
  list(user['sharedArtifacts'], 'user.sharedArtifacts').forEach((a, i) =>
    decodeSharedArtifact(a, `user.sharedArtifacts[${i}]`),
  );
  list(user['comments'], 'user.comments').forEach((c, i) => decodeComment(c, `user.comments[${i}]`));
  list(user['reactions'], 'user.reactions').forEach((r, i) => decodeReaction(r, `user.reactions[${i}]`));
  return body;
}

/** Every `url` and `formats.*.url` in an answer (what the app joins to `serverAssetsRootURL`). */
export function mediaUrls(value: Json): string[] {
  const found: string[] = [];
  const walk = (v: Json) => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') {
      for (const [key, field] of Object.entries(v as JsonMap)) {
        if (key === 'url' && typeof field === 'string') found.push(field);
        else walk(field);
      }
    }
  };
  walk(value);
  return [...new Set(found)];
}
