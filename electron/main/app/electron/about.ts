import type { AboutPanelOptionsOptions } from 'electron';

/** The About panel: app version plus the Electron, Chromium, Node and V8 versions it runs on. */
export function aboutPanelOptions(input: {
  appName: string;
  appVersion: string;
  versions: Partial<Record<'electron' | 'chrome' | 'node' | 'v8', string>>;
  iconPath?: string;
}): AboutPanelOptionsOptions {
  const runtime = (['electron', 'chrome', 'node', 'v8'] as const)
    .filter((k) => input.versions[k])
    .map(
      (k) =>
        `${k === 'chrome' ? 'Chromium' : k === 'v8' ? 'V8' : k[0]!.toUpperCase() + k.slice(1)} ${input.versions[k]}`,
    )
    .join(', ');
  return {
    applicationName: input.appName,
    applicationVersion: input.appVersion,
    version: runtime,
    credits: runtime,
    copyright: `Copyright © ${new Date().getFullYear()} Takedesk`,
    ...(input.iconPath ? { iconPath: input.iconPath } : {}),
  };
}
