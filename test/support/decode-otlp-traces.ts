/**
 * Decodes an OTLP/HTTP protobuf trace export (`ExportTraceServiceRequest`) as the real exporter
 * sends it, by the field numbers of opentelemetry-proto's `trace/v1/trace.proto`,
 * `common/v1/common.proto` and `resource/v1/resource.proto`: a protobuf wire-format reader (varint,
 * 64-bit, length-delimited, 32-bit) and the few messages the tests read. Unknown fields are
 * skipped, as protobuf readers do.
 */

export type AttributeValue = string | number | boolean | AttributeValue[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  traceState: string;
  name: string;
  /** 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  startTimeUnixNano: bigint;
  endTimeUnixNano: bigint;
  attributes: Record<string, AttributeValue>;
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  /** The attributes of the resource that sent it (`service.name`…). */
  resource: Record<string, AttributeValue>;
}

type Field = { number: number; wireType: number; varint: bigint; bytes: Buffer };

function readVarint(buffer: Buffer, at: { offset: number }): bigint {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const byte = buffer[at.offset++];
    if (byte === undefined) throw new Error('truncated varint');
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return result;
    shift += 7n;
  }
}

/** The fields of one message, in order. */
function readFields(buffer: Buffer): Field[] {
  const fields: Field[] = [];
  const at = { offset: 0 };
  while (at.offset < buffer.length) {
    const tag = Number(readVarint(buffer, at));
    const field: Field = {
      number: tag >>> 3,
      wireType: tag & 7,
      varint: 0n,
      bytes: Buffer.alloc(0),
    };
    switch (field.wireType) {
      case 0:
        field.varint = readVarint(buffer, at);
        break;
      case 1:
        field.bytes = buffer.subarray(at.offset, at.offset + 8);
        at.offset += 8;
        break;
      case 2: {
        const length = Number(readVarint(buffer, at));
        field.bytes = buffer.subarray(at.offset, at.offset + length);
        at.offset += length;
        break;
      }
      case 5:
        field.bytes = buffer.subarray(at.offset, at.offset + 4);
        at.offset += 4;
        break;
      default:
        throw new Error(`unsupported wire type ${field.wireType}`);
    }
    if (at.offset > buffer.length) throw new Error('truncated field');
    fields.push(field);
  }
  return fields;
}

function all(fields: Field[], number: number): Field[] {
  return fields.filter((field) => field.number === number);
}

function one(fields: Field[], number: number): Field | undefined {
  return fields.findLast((field) => field.number === number);
}

function text(fields: Field[], number: number): string {
  return one(fields, number)?.bytes.toString('utf8') ?? '';
}

function hex(fields: Field[], number: number): string {
  return one(fields, number)?.bytes.toString('hex') ?? '';
}

/** `AnyValue`: string 1, bool 2, int 3, double 4, array 5 (`ArrayValue.values` 1), bytes 7. */
function anyValue(bytes: Buffer): AttributeValue {
  const field = readFields(bytes).at(-1);
  if (field === undefined) return null;
  switch (field.number) {
    case 1:
      return field.bytes.toString('utf8');
    case 2:
      return field.varint !== 0n;
    case 3:
      return Number(BigInt.asIntN(64, field.varint));
    case 4:
      return field.bytes.readDoubleLE(0);
    case 5:
      return all(readFields(field.bytes), 1).map((value) => anyValue(value.bytes));
    case 7:
      return field.bytes.toString('base64');
    default:
      return null;
  }
}

/** Repeated `KeyValue` (key 1, value 2) as an object. */
function attributes(fields: Field[], number: number): Record<string, AttributeValue> {
  const result: Record<string, AttributeValue> = {};
  for (const entry of all(fields, number)) {
    const pair = readFields(entry.bytes);
    const value = one(pair, 2);
    result[text(pair, 1)] = value === undefined ? null : anyValue(value.bytes);
  }
  return result;
}

function span(bytes: Buffer, resource: Record<string, AttributeValue>): ReceivedSpan {
  const fields = readFields(bytes);
  const status = readFields(one(fields, 15)?.bytes ?? Buffer.alloc(0));
  return {
    traceId: hex(fields, 1),
    spanId: hex(fields, 2),
    traceState: text(fields, 3),
    parentSpanId: hex(fields, 4),
    name: text(fields, 5),
    kind: Number(one(fields, 6)?.varint ?? 0n),
    startTimeUnixNano: one(fields, 7)?.bytes.readBigUInt64LE(0) ?? 0n,
    endTimeUnixNano: one(fields, 8)?.bytes.readBigUInt64LE(0) ?? 0n,
    attributes: attributes(fields, 9),
    status: { code: Number(one(status, 3)?.varint ?? 0n), message: text(status, 2) },
    resource,
  };
}

/** The spans of one `ExportTraceServiceRequest`. */
export function decodeOtlpTraces(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of all(readFields(body), 1)) {
    const fields = readFields(resourceSpans.bytes);
    const resource = attributes(readFields(one(fields, 1)?.bytes ?? Buffer.alloc(0)), 1);
    for (const scopeSpans of all(fields, 2)) {
      for (const each of all(readFields(scopeSpans.bytes), 2))
        spans.push(span(each.bytes, resource));
    }
  }
  return spans;
}
