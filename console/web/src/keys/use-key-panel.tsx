/**
 * "Use this key": per tool (Claude Code, Codex CLI, Gemini CLI, OpenCode) the files, environment
 * variables and shell lines, a command to try, and the CC Switch import link, each with Copy.
 */
import { useState } from 'react';
import type { ClientConfig } from '../api/console-api.js';

function CopyBlock(props: { label: string; text: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <div className="copy-block">
      <div className="copy-head">
        <span>{props.label}</span>
        <button
          type="button"
          className="quiet"
          aria-label={`Copy ${props.label}`}
          onClick={() => {
            void navigator.clipboard.writeText(props.text).then(() => {
              setCopied(true);
            });
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre>
        <code>{props.text}</code>
      </pre>
    </div>
  );
}

export function UseKeyPanel(props: { config: ClientConfig }) {
  const { config } = props;
  const [chosen, setChosen] = useState(config.tools[0]?.tool ?? '');
  const tool = config.tools.find((entry) => entry.tool === chosen) ?? config.tools[0];
  return (
    <section className="card use-key" aria-labelledby="use-key-title">
      <h2 id="use-key-title">Use this key</h2>
      <p className="hint">
        {config.platform} at <code>{config.baseUrl}</code>
      </p>
      <div className="tabs" role="group" aria-label="Tool">
        {config.tools.map((entry) => (
          <button
            key={entry.tool}
            type="button"
            className="quiet"
            aria-pressed={entry.tool === tool?.tool}
            onClick={() => {
              setChosen(entry.tool);
            }}
          >
            {entry.title}
          </button>
        ))}
      </div>
      {tool !== undefined && (
        <div className="tool">
          {tool.files.map((file) => (
            <CopyBlock key={file.path} label={file.path} text={file.content} />
          ))}
          <CopyBlock label="Shell (POSIX)" text={tool.shell.posix} />
          <CopyBlock label="PowerShell" text={tool.shell.powershell} />
          <CopyBlock label="Try it" text={tool.tryCommand} />
          {tool.ccSwitchLink !== null && (
            <a className="button" href={tool.ccSwitchLink}>
              Import into CC Switch
            </a>
          )}
        </div>
      )}
      <CopyBlock label="Check the key" text={config.checkCommand} />
    </section>
  );
}
