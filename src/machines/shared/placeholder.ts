/**
 * An action or actor implementation that must be provided by the app (`machine.provide`).
 * Throws when it was forgotten, instead of silently doing nothing.
 */
export function placeholder(name: string): () => never {
  return () => {
    throw new Error(`"${name}" must be provided with machine.provide() before the machine runs.`);
  };
}
