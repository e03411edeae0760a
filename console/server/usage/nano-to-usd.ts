/**
 * Pure: whole nano-USD as an exact decimal USD amount (`0.000086793`, `12.5`, `0`), the one
 * conversion the console's API and its web app share (the web app includes this file).
 */
export function nanoToUsd(nano: number): string {
  const negative = nano < 0;
  const magnitude = Math.round(Math.abs(nano));
  const whole = Math.floor(magnitude / 1_000_000_000);
  const fraction = String(magnitude % 1_000_000_000)
    .padStart(9, '0')
    .replace(/0+$/, '');
  return `${negative && magnitude > 0 ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}
