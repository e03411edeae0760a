/**
 * "Use this key": per tool (Claude Code, Codex CLI, Gemini CLI, OpenCode) the files, environment
 * variables and shell lines, each with Copy, saying which are needed together and which are
 * alternatives; a command to try; and the CC Switch import link (with the placeholder when the
 * value is not known), warned about when CC Switch's usage display cannot reach the gateway.
 */
import { useState } from 'react';
import type { ClientConfig } from '../api/console-api.js';
import { KEY_PLACEHOLDER } from '../../../server/client-config/client-config-types.js';
import { CopyBlock } from '../ui/copy-block.js';
import './use-key-panel.css';

type ToolConfig = ClientConfig['tools'][number];

/** The shell lines: one of the two, for the shell in use. */
function ShellBlocks(props: { tool: ToolConfig }) {
  return (
    <>
      <CopyBlock label="Shell (POSIX: bash, zsh)" text={props.tool.shell.posix} />
      <p className="or">or</p>
      <CopyBlock label="PowerShell" text={props.tool.shell.powershell} />
    </>
  );
}

/** The tool's setup in steps: what every setup needs, then the alternatives, then a try. */
function ToolSetup(props: { tool: ToolConfig }) {
  const { tool } = props;
  const required = tool.files.filter((file) => file.role === 'required');
  const instead = tool.files.filter((file) => file.role === 'instead-of-environment');
  // One variable by its name; several are the ones in the blocks below.
  const variables = tool.env.length === 1 ? (tool.env[0]?.name ?? '') : 'the environment variables';
  return (
    <ol className="setup-steps">
      {required.length > 0 && (
        <li>
          <p>
            Write {required.length === 1 ? 'this file' : 'these files'}
            {instead.length === 0 ? ' and set the environment variable (both are needed):' : ':'}
          </p>
          {required.map((file) => (
            <CopyBlock key={file.path} label={file.path} text={file.content} />
          ))}
        </li>
      )}
      {instead.length > 0 ? (
        <li>
          <p>Either write {instead.length === 1 ? 'this file' : 'these files'}:</p>
          {instead.map((file) => (
            <CopyBlock key={file.path} label={file.path} text={file.content} />
          ))}
          <p>or set the same settings as environment variables in your shell, with one of:</p>
          <ShellBlocks tool={tool} />
        </li>
      ) : (
        <li>
          <p>Set {variables} in your shell, with one of:</p>
          <ShellBlocks tool={tool} />
        </li>
      )}
      <li>
        <p>Try it:</p>
        <CopyBlock label="Try it" text={tool.tryCommand} />
      </li>
    </ol>
  );
}

function CcSwitchImport(props: { link: string; config: ClientConfig }) {
  const { config } = props;
  return (
    <div className="cc-switch">
      <p>Or, instead of the steps above, import the settings into CC Switch:</p>
      <a className="button" href={props.link}>
        Import into CC Switch
      </a>
      {!config.keyIncluded && (
        <p className="hint">
          The import carries the placeholder: paste the key&apos;s value into CC Switch&apos;s API
          key field afterwards.
        </p>
      )}
      {config.usageDisplayNeedsHttps && (
        <p className="warning" role="note">
          CC Switch shows the key&apos;s usage only from an HTTPS gateway, or one on the same
          machine: this gateway is plain HTTP at another address, so its usage will not show.
        </p>
      )}
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
        {!config.keyIncluded && (
          <>
            . The value is shown only when the key is created or rotated: put it where{' '}
            <code>{KEY_PLACEHOLDER}</code> stands.
          </>
        )}
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
          <ToolSetup tool={tool} />
          {tool.ccSwitchLink !== null && (
            <CcSwitchImport link={tool.ccSwitchLink} config={config} />
          )}
        </div>
      )}
      <CopyBlock label="Check the key" text={config.checkCommand} />
    </section>
  );
}
