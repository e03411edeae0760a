/**
 * The Antigravity upstream on the fake: `:generateContent`,
 * `:streamGenerateContent?alt=sse` and `:countTokens`, each reply wrapped as `{response: {…}}`; and
 * the Google OAuth token endpoint `POST /oauth2/token` (form body, `grant_type=refresh_token`, or
 * the service-account JWT bearer grant, whose assertion the fake takes unverified), and the GKE
 * metadata server's token (`GET …/service-accounts/default/token` with `Metadata-Flavor: Google`).
 */
import {
  fakeAnswerFor,
  GOOGLE_STREAM_ERROR,
  geminiResponses,
  geminiToolTurn,
} from './answer-gemini-generate-content.js';
import { bodyFields, type FakeCall } from './fake-call.js';
import { sendFrames, sendJson, sseFrame } from './write-fake-response.js';

export interface FakeOAuthSettings {
  /** The refresh token the endpoint requires; null accepts any (as `tollgate simulate` does). */
  refreshToken: string | null;
  accessToken: string;
  expiresInSeconds: number;
}

export async function answerAntigravity(call: FakeCall, method: string): Promise<void> {
  const body = bodyFields(call);
  const model = typeof body.model === 'string' ? body.model : 'gemini-fake';
  const inner = body.request;
  const turn =
    typeof inner === 'object' && inner !== null && !Array.isArray(inner)
      ? geminiToolTurn(inner as Record<string, unknown>, model)
      : undefined;
  const answer = fakeAnswerFor(call, model, turn);
  if (method === 'countTokens') {
    await sendJson(call.write, { status: 200, body: { totalTokens: answer.inputTotal } });
    return;
  }
  const streamed = method === 'streamGenerateContent';
  const omitUsage = call.behaviour.omitUsage === true;
  const tool = turn?.call ?? null;
  const wrapped = geminiResponses({ answer, streamed, omitUsage, tool }).map((response) => ({
    response,
    traceId: 'fake-trace-1',
  }));
  if (!streamed) {
    await sendJson(call.write, { status: 200, body: wrapped[0] });
    return;
  }
  const frames = wrapped.map((chunk) => sseFrame(chunk));
  if (call.behaviour.streamError === true) frames.splice(-1, 1, sseFrame(GOOGLE_STREAM_ERROR));
  await sendFrames(call.write, { contentType: 'text/event-stream', frames });
}

const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

function isGranted(call: FakeCall, settings: FakeOAuthSettings): boolean {
  if (call.request.method === 'GET') return call.request.headers['metadata-flavor'] === 'Google';
  const form = bodyFields(call);
  if (form.grant_type === JWT_BEARER) {
    return typeof form.assertion === 'string' && form.assertion.split('.').length === 3;
  }
  const token = typeof form.refresh_token === 'string' ? form.refresh_token : '';
  const accepted = settings.refreshToken === null ? token !== '' : token === settings.refreshToken;
  return form.grant_type === 'refresh_token' && accepted;
}

export async function answerOAuthToken(call: FakeCall, settings: FakeOAuthSettings): Promise<void> {
  if (!isGranted(call, settings)) {
    await sendJson(call.write, {
      status: 400,
      body: { error: 'invalid_grant', error_description: 'Bad refresh token.' },
    });
    return;
  }
  await sendJson(call.write, {
    status: 200,
    body: {
      access_token: settings.accessToken,
      expires_in: settings.expiresInSeconds,
      token_type: 'Bearer',
    },
  });
}
