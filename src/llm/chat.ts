import { ChatOpenAI } from '@langchain/openai';

/** An OpenAI-compatible chat endpoint (LLM_BASE_URL, LLM_MODEL, LLM_API_KEY, LLM_TIMEOUT_MS). */
export interface LlmOptions {
  baseURL: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

/**
 * One JSON-object reply from the model, as text. LangChain's default of 6 retries would multiply the
 * timeout, so each caller states its own (the planner allows one, the SOP writer none: its template
 * fallback is always good). Throws on transport failures and timeouts.
 */
export function createJsonChat(options: LlmOptions & { maxRetries: number }) {
  const chat = new ChatOpenAI({
    model: options.model,
    apiKey: options.apiKey ?? 'not-needed',
    configuration: { baseURL: options.baseURL },
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
    temperature: 0,
  });
  return async (system: string, user: string): Promise<string> => {
    const reply = await chat.invoke(
      [
        { role: 'system', content: system },
        { role: 'user', content: user },
      ],
      { response_format: { type: 'json_object' } } as never,
    );
    return typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
  };
}

/** The JSON value of a reply, tolerating a Markdown code fence around it; undefined when it is not JSON. */
export function parseJsonReply(text: string): unknown {
  try {
    return JSON.parse(text.trim().replace(/^```(?:json)?\s*|\s*```$/g, ''));
  } catch {
    return undefined;
  }
}
