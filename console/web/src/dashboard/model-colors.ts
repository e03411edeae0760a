/** The models' colours: distinct hues readable on the light and the dark surface. */
const COLORS = ['#4f7fe0', '#e0813c', '#3aa57a', '#c8579b', '#9a7be0', '#c9a227', '#4fb3c8'];

export function modelColor(index: number): string {
  return COLORS[index % COLORS.length] ?? '#888888';
}
