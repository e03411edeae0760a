/** The platforms a Group or Upstream speaks (the resource model's list, for the web app). */
export const PLATFORM_OPTIONS = [
  { value: 'Anthropic', label: 'Anthropic' },
  { value: 'OpenAI', label: 'OpenAI' },
  { value: 'Gemini', label: 'Gemini' },
  { value: 'Antigravity', label: 'Antigravity' },
] as const;
