/**
 * Pure: the OpenAPI v2 document in the protobuf form client-go asks for
 * (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, gnostic `openapi.v2.Document`).
 * Only the fields this control plane publishes are written; field numbers are gnostic's.
 */
import { stringify } from 'yaml';
import type { SwaggerDocument, SwaggerSchema } from './build-openapi-v2.js';

/** What client-go asks for (`Accept`)... */
export const OPENAPI_V2_PROTOBUF = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
/** ...and the media type the API server answers with (`@` is not valid in a Content-Type). */
export const OPENAPI_V2_PROTOBUF_REPLY =
  'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest > 0x7f) {
    bytes.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

/** A length-delimited field (wire type 2): strings, bytes and embedded messages. */
function field(number: number, content: Buffer | string): Buffer {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  return Buffer.concat([varint(number * 8 + 2), varint(bytes.length), bytes]);
}

function named(name: string, value: Buffer): Buffer {
  return Buffer.concat([field(1, name), field(2, value)]);
}

function encodeSchema(schema: SwaggerSchema): Buffer {
  const parts: Buffer[] = [];
  if (schema.description !== undefined) parts.push(field(4, schema.description));
  for (const required of schema.required ?? []) parts.push(field(19, required));
  if (schema.additionalProperties !== undefined) {
    parts.push(field(21, field(1, encodeSchema(schema.additionalProperties))));
  }
  if (schema.type !== undefined) parts.push(field(22, field(1, schema.type)));
  if (schema.items !== undefined) parts.push(field(23, field(1, encodeSchema(schema.items))));
  if (schema.properties !== undefined) {
    const properties = schema.properties.map(([name, child]) =>
      field(1, named(name, encodeSchema(child))),
    );
    parts.push(field(25, Buffer.concat(properties)));
  }
  for (const [name, value] of schema.extensions ?? []) {
    // NamedAny { name = 1; Any value = 2 }, Any { string yaml = 2 }.
    parts.push(field(31, named(name, field(2, stringify(value)))));
  }
  return Buffer.concat(parts);
}

export function encodeOpenApiV2(document: SwaggerDocument): Buffer {
  const info = Buffer.concat([field(1, document.info.title), field(2, document.info.version)]);
  const definitions = document.definitions.map(([name, schema]) =>
    field(1, named(name, encodeSchema(schema))),
  );
  return Buffer.concat([
    field(1, document.swagger),
    field(2, info),
    field(8, Buffer.alloc(0)),
    field(9, Buffer.concat(definitions)),
  ]);
}
