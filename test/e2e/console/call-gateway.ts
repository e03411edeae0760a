/**
 * Test support for the console's browser tests: calls to the local gateway through the official
 * Anthropic SDK with a key value the console showed, until the operator has published the key.
 */
import Anthropic from '@anthropic-ai/sdk';

/** The answer's text, once the gateway accepts the value (401 until the key is published). */
export async function callUntilAccepted(gatewayUrl: string, value: string): Promise<string> {
  const anthropic = new Anthropic({ apiKey: value, baseURL: gatewayUrl, maxRetries: 0 });
  const until = Date.now() + 30_000;
  for (;;) {
    try {
      const message = await anthropic.messages.create({
        model: 'claude-sonnet-4-6',
        max_tokens: 32,
        messages: [{ role: 'user', content: 'hello from the console test' }],
      });
      const first = message.content[0];
      return first?.type === 'text' ? first.text : '';
    } catch (error) {
      // The operator publishes a new key within moments: until then the gateway answers 401.
      if (!(error instanceof Anthropic.AuthenticationError) || Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
