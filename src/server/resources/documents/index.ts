// Knowledge documents: files and crawled websites turned into searchable chunks for PALs.
import { sql } from 'kysely';
import type { ResourceModule } from '../module.js';
import { createDocument, startRecrawl } from './admission.js';
import { createEmbedder } from './embed/embedder.js';
import { DocumentError } from './errors.js';
import { INGEST_JOB, ingestJob } from './pipeline.js';
import { documentView, ownedDocument } from './repository.js';
import * as routes from './routes.js';
import { searchChunks } from './vector-store.js';

export const documentsModule: ResourceModule = {
  name: 'documents',
  jobs: (deps) => ({ [INGEST_JOB]: ingestJob(deps) }),
  routes(app, deps) {
    const { db, clock } = deps;

    app.openapi(routes.createDocument, async (c) =>
      c.json(documentView(await createDocument(deps, c.get('ownerId'), c.req.valid('json'))), 200),
    );

    app.openapi(routes.listDocuments, async (c) => {
      const { limit, page, tags, status } = c.req.valid('query');
      const wanted = (tags ?? '')
        .split(',')
        .map((t) => t.trim())
        .filter(Boolean);
      const base = db
        .selectFrom('documents')
        .where('owner_id', '=', c.get('ownerId'))
        .$if(status !== undefined, (q) => q.where('status', '=', status!))
        .$if(wanted.length > 0, (q) =>
          q.where((eb) => eb.or(wanted.map((tag) => eb(sql`tags`, '@>', sql`${JSON.stringify([tag])}::jsonb`)))),
        );
      const [rows, total] = await Promise.all([
        base
          .selectAll()
          .orderBy('created_at', 'desc')
          .orderBy('document_id')
          .limit(limit)
          .offset((page - 1) * limit)
          .execute(),
        base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return c.json({ data: rows.map(documentView), total_count: Number(total.n) }, 200);
    });

    app.openapi(routes.searchDocuments, async (c) => {
      const body = c.req.valid('json');
      const embedder = createEmbedder(deps);
      let vector: number[];
      try {
        [vector] = (await embedder.embed([body.query])) as [number[]];
      } catch (error) {
        if (error instanceof DocumentError) return c.json({ error: error.message }, 502);
        throw error;
      }
      const data = await searchChunks(
        db,
        deps.hasVector,
        { ownerId: c.get('ownerId'), documentIds: body.document_ids, tags: body.tags, embedder: embedder.id, limit: body.limit },
        vector,
        body.query,
      );
      return c.json({ data }, 200);
    });

    app.openapi(routes.getDocument, async (c) =>
      c.json(documentView(await ownedDocument(db, c.get('ownerId'), c.req.valid('param').document_id)), 200),
    );

    app.openapi(routes.updateDocument, async (c) => {
      const { document_id } = c.req.valid('param');
      const body = c.req.valid('json');
      await ownedDocument(db, c.get('ownerId'), document_id);
      const row = await db
        .updateTable('documents')
        .set({
          ...(body.document_name !== undefined ? { document_name: body.document_name } : {}),
          ...(body.tags !== undefined ? { tags: JSON.stringify(body.tags) } : {}),
          updated_at: clock.now(),
        })
        .where('document_id', '=', document_id)
        .returningAll()
        .executeTakeFirstOrThrow();
      return c.json(documentView(row), 200);
    });

    app.openapi(routes.deleteDocument, async (c) => {
      const { document_id } = c.req.valid('param');
      await ownedDocument(db, c.get('ownerId'), document_id);
      await db.deleteFrom('documents').where('document_id', '=', document_id).execute();
      return c.json({ deleted: true as const }, 200);
    });

    app.openapi(routes.recrawlDocument, async (c) => {
      const { document_id } = c.req.valid('param');
      // The body is optional: an empty request reuses the stored settings.
      const body = c.req.header('content-length') === '0' || !c.req.header('content-type') ? {} : c.req.valid('json');
      return c.json(documentView(await startRecrawl(deps, c.get('ownerId'), document_id, body.crawl)), 202);
    });
  },
};
