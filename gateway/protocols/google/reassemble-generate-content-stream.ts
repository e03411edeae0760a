/**
 * A streamed generateContent reply (SSE events or JSON array elements, each a
 * GenerateContentResponse) merged into the one GenerateContentResponse it amounts to: each
 * candidate's parts joined in order, neighbouring text parts of the same kind (thought or not)
 * as one; the latest finish reason, safety ratings, citations, usage and model version.
 * `unwrap` reads each payload's response first (the Antigravity envelope `{response: ...}`).
 */
import { objectOf, type ReplyReassembler } from '../../spec/reply-reassembler.js';

interface Candidate {
  index: number;
  fields: Record<string, unknown>;
  role: unknown;
  parts: Record<string, unknown>[];
}

function appendPart(parts: Record<string, unknown>[], value: unknown): void {
  const part = objectOf(value);
  if (part === null) return;
  const last = parts[parts.length - 1];
  const joinable =
    last !== undefined &&
    typeof last.text === 'string' &&
    typeof part.text === 'string' &&
    last.thought === part.thought &&
    Object.keys(part).every((name) => name === 'text' || name === 'thought');
  if (joinable) last.text = `${last.text as string}${part.text as string}`;
  else parts.push({ ...part });
}

function applyCandidate(candidates: Map<number, Candidate>, value: unknown): void {
  const next = objectOf(value);
  if (next === null) return;
  const index = typeof next.index === 'number' ? next.index : 0;
  let candidate = candidates.get(index);
  if (candidate === undefined) {
    candidate = { index, fields: {}, role: undefined, parts: [] };
    candidates.set(index, candidate);
  }
  for (const [name, field] of Object.entries(next)) {
    if (name !== 'content' && name !== 'index') candidate.fields[name] = field;
  }
  const content = objectOf(next.content);
  if (content === null) return;
  if (content.role !== undefined) candidate.role = content.role;
  if (Array.isArray(content.parts))
    for (const part of content.parts) appendPart(candidate.parts, part);
}

export function createGenerateContentStreamReassembler(
  options: { unwrap?: boolean } = {},
): ReplyReassembler {
  const head: Record<string, unknown> = {};
  const candidates = new Map<number, Candidate>();
  let seen = false;
  return {
    feed(payload) {
      const outer = objectOf(payload);
      const response = options.unwrap === true ? (objectOf(outer?.response) ?? outer) : outer;
      if (response === null) return;
      seen = true;
      for (const [name, field] of Object.entries(response)) {
        if (name !== 'candidates') head[name] = field;
      }
      if (Array.isArray(response.candidates)) {
        for (const candidate of response.candidates) applyCandidate(candidates, candidate);
      }
    },
    result() {
      if (!seen) return null;
      return {
        candidates: [...candidates.values()]
          .sort((a, b) => a.index - b.index)
          .map((candidate) => ({
            content: {
              parts: candidate.parts,
              ...(candidate.role === undefined ? {} : { role: candidate.role }),
            },
            ...candidate.fields,
            index: candidate.index,
          })),
        ...head,
      };
    },
  };
}
