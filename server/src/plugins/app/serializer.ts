import type { FastifyInstance } from 'fastify';
import fastifyPlugin from 'fastify-plugin';
import { HttpError } from '../../errors.ts';
import { parseJsonBody } from '../../http/requestGuards.ts';
import { createResponseSerializerCompiler } from '../../http/serialization.ts';
import { zodValidatorCompiler } from '../../http/validation.ts';
import { signAddresses } from '../../media/capabilities.ts';

/** The user of a sign-in answer (`{jwt, user: {id, …}}`), or `null`. */
function signedInUserId(payload: unknown): number | null {
  if (payload === null || typeof payload !== 'object' || typeof (payload as { jwt?: unknown }).jwt !== 'string') return null;
  const id = (payload as { user?: { id?: unknown } }).user?.id;
  return typeof id === 'number' ? id : null;
}

/**
 * What goes in and out of a route: requests validated and answers serialised with the shared Zod
 * schemas, JSON bodies read strictly, and every address of a stored file in an answer signed.
 */
async function serializer(app: FastifyInstance): Promise<void> {
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(createResponseSerializerCompiler({ verify: process.env['NODE_ENV'] === 'test' }));

  // Empty bodies with a JSON content type (mobile clients send the header on every call)
  // are read as "no body" instead of failing before validation. Bodies are JSON only.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    // JSON is UTF-8 (RFC 8259): a body declared in another charset is refused, not misread.
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(request.headers['content-type'] ?? '')?.[1];
    if (charset && charset.toLowerCase() !== 'utf-8') {
      done(new HttpError(415, 'unsupported_media_type', 'Send JSON bodies in UTF-8.'), undefined);
      return;
    }
    try {
      done(null, parseJsonBody(typeof body === 'string' ? body : body.toString('utf8')));
    } catch (error) {
      done(error as Error, undefined);
    }
  });

  // Every address of a stored file in an answer becomes a capability for the caller (or, in a
  // sign-in answer, for the user who signed in): `<img>`, `<video>` and the mobile apps fetch
  // files without a session.
  app.addHook('preSerialization', async (request, _reply, payload: unknown) => {
    const userId = request.user?.id ?? signedInUserId(payload);
    if (userId !== null) signAddresses(payload, app.services.media.signFor(userId));
    return payload;
  });
}

export default fastifyPlugin(serializer, { name: 'serializer', dependencies: ['services'] });
