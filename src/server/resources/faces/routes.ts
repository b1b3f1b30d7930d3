// Route definitions of faces, under both names: /v2/replicas (legacy, replica_id) and /v2/faces (face_id).
import { z } from '@hono/zod-openapi';
import { errors, json, jsonBody, keyedRoute } from '../../platform/http/openapi.js';
import { CreateFace, CreateReplica, Deleted, Face, ListQuery, RenameFace, RenameReplica, Replica, Verbose } from './schemas.js';

const idParam = (name: 'replica_id' | 'face_id') =>
  z.object({
    [name]: z
      .string()
      .min(1)
      .max(64)
      .openapi({ param: { name, in: 'path' }, example: 'r8c2kd93jd0sk2' }),
  }) as z.ZodObject<Record<typeof name, z.ZodString>>;

function faceRoutes<N extends 'replica' | 'face'>(naming: N) {
  const base = naming === 'replica' ? '/v2/replicas' : '/v2/faces';
  const tags = naming === 'replica' ? ['Replicas (legacy names)'] : ['Faces'];
  const View = naming === 'replica' ? Replica : Face;
  const params = idParam(naming === 'replica' ? 'replica_id' : 'face_id');
  const path = `${base}/{${naming === 'replica' ? 'replica_id' : 'face_id'}}`;
  return {
    create: keyedRoute({
      method: 'post',
      path: base,
      tags,
      summary: `Create a ${naming} from a training video (training runs in the background)`,
      request: jsonBody(naming === 'replica' ? CreateReplica : CreateFace),
      responses: { 200: json(View, 'Created; status is training'), ...errors(400) },
    }),
    list: keyedRoute({
      method: 'get',
      path: base,
      tags,
      summary: `List your ${naming}s (newest first, paged)`,
      request: { query: ListQuery },
      responses: { 200: json(z.object({ data: z.array(View), total_count: z.number().int() }), 'One page'), ...errors(400) },
    }),
    get: keyedRoute({
      method: 'get',
      path,
      tags,
      summary: `Get a ${naming}`,
      request: { params, query: z.object({ verbose: Verbose }) },
      responses: { 200: json(View, naming), ...errors(400, 404) },
    }),
    rename: keyedRoute({
      method: 'patch',
      path: `${path}/name`,
      tags,
      summary: `Rename a ${naming}`,
      request: { params, ...jsonBody(naming === 'replica' ? RenameReplica : RenameFace) },
      responses: { 200: json(View, 'Renamed'), ...errors(400, 404) },
    }),
    delete: keyedRoute({
      method: 'delete',
      path,
      tags,
      summary: `Delete a ${naming} (refused with 409 while a PAL uses it as its default face)`,
      request: { params },
      responses: { 200: json(Deleted, 'Deleted'), ...errors(400, 404, 409) },
    }),
  };
}

export const replicaRoutes = faceRoutes('replica');
export const faceAliasRoutes = faceRoutes('face');
