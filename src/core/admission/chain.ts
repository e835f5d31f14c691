// The admission chain: the enabled plugins in kube-apiserver's fixed order,
// built once per server from --enable-admission-plugins and
// --disable-admission-plugins. admit() runs every mutating plugin in order,
// validate() every validating one; the first refusal stops the request.

import { ALL_ORDERED_PLUGINS, DEFAULT_ON_PLUGINS } from './plugin-names';
import { PLUGIN_FACTORIES } from './plugins';
import type { AdmissionAttributes, AdmissionContext, AdmissionOperation, AdmissionPlugin, AdmissionPluginFactory } from './types';

export interface AdmissionChain {
  /** Enabled plugin names, in the order they run (implemented or not). */
  readonly enabled: readonly string[];
  /** The enabled plugins KubeTab implements, in order. */
  readonly plugins: readonly AdmissionPlugin[];
  isEnabled(name: string): boolean;
  /** Mutating phase. */
  admit(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void>;
  /** Validating phase. */
  validate(attrs: AdmissionAttributes, ctx: AdmissionContext): Promise<void>;
}

function commaList(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/**
 * The enabled plugin names for these flags, in kube's order. Throws kube-apiserver's
 * start-up errors for unknown or overlapping names (it exits with them).
 */
export function resolveEnabledPlugins(flags: Readonly<Record<string, string | undefined>>): string[] {
  const enable = commaList(flags['enable-admission-plugins']);
  const disable = commaList(flags['disable-admission-plugins']);
  const known = new Set<string>(ALL_ORDERED_PLUGINS);
  const problems: string[] = [];
  for (const name of enable) if (!known.has(name)) problems.push(`enable-admission-plugins plugin "${name}" is unknown`);
  for (const name of disable) if (!known.has(name)) problems.push(`disable-admission-plugins plugin "${name}" is unknown`);
  const overlap = [...new Set(enable.filter((n) => disable.includes(n)))].sort();
  if (overlap.length) problems.push(`[${overlap.join(' ')}] in enable-admission-plugins and disable-admission-plugins overlapped`);
  if (problems.length === 1) throw new Error(problems[0]);
  if (problems.length > 1) throw new Error(`[${problems.join(', ')}]`);
  const on = new Set<string>(DEFAULT_ON_PLUGINS);
  for (const name of enable) on.add(name);
  for (const name of disable) on.delete(name);
  return ALL_ORDERED_PLUGINS.filter((name) => on.has(name));
}

export interface AdmissionChainOptions {
  /** Extra factories (tests, other subsystems) that add to or replace the built-in ones. */
  readonly factories?: Readonly<Record<string, AdmissionPluginFactory>>;
  /** Default-on plugins this server leaves out unless --enable-admission-plugins names them. */
  readonly defaultOff?: readonly string[];
}

/** Builds the chain from the flags. Throws the start-up errors of resolveEnabledPlugins. */
export function createAdmissionChain(flags: Readonly<Record<string, string | undefined>>, options: AdmissionChainOptions = {}): AdmissionChain {
  const explicit = new Set(commaList(flags['enable-admission-plugins']));
  const dropped = new Set((options.defaultOff ?? []).filter((name) => !explicit.has(name)));
  const enabled = resolveEnabledPlugins(flags).filter((name) => !dropped.has(name));
  const extraFactories = options.factories ?? {};
  const factories = { ...PLUGIN_FACTORIES, ...extraFactories };
  const plugins = enabled.flatMap((name) => (factories[name] ? [factories[name]({ flags })] : []));
  const on = new Set(enabled);
  // Each operation's mutating and validating plugins, in order, worked out once:
  // handles() answers for the operation alone (kube's admission.Handler).
  const phases = new Map<AdmissionOperation, { admit: AdmissionPlugin[]; validate: AdmissionPlugin[] }>();
  const phasesOf = (operation: AdmissionOperation) => {
    let p = phases.get(operation);
    if (!p) {
      const handling = plugins.filter((plugin) => plugin.handles(operation));
      p = { admit: handling.filter((plugin) => plugin.admit), validate: handling.filter((plugin) => plugin.validate) };
      phases.set(operation, p);
    }
    return p;
  };
  return {
    enabled,
    plugins,
    isEnabled: (name) => on.has(name),
    // A plugin that answers synchronously (most do for a kind they do not look at) is not awaited.
    async admit(attrs, ctx) {
      for (const plugin of phasesOf(attrs.operation).admit) {
        const pending = plugin.admit!(attrs, ctx);
        if (pending) await pending;
      }
    },
    async validate(attrs, ctx) {
      for (const plugin of phasesOf(attrs.operation).validate) {
        const pending = plugin.validate!(attrs, ctx);
        if (pending) await pending;
      }
    },
  };
}
