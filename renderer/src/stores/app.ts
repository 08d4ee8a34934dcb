import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { AppInfo, Settings } from '../../../shared/ipc';
import { useApi } from '../bridge';
import { loadState } from './support/load-state';

/** App facts (version, mode, secrets backend) and the user's settings, with the theme applied to <html>. */
export const useAppStore = defineStore('app', () => {
  const api = useApi();
  const info = ref<AppInfo | null>(null);
  const settings = ref<Settings | null>(null);
  const { loadError, run: runLoad } = loadState();
  const saving = ref(false);
  const saveError = ref<unknown>(null);

  const theme = computed(() => settings.value?.theme ?? 'system');
  const secretsWarning = computed(() =>
    info.value && !info.value.secrets.secure
      ? (info.value.secrets.warning ?? 'Your token is not stored securely.')
      : null,
  );

  /** Loads info and settings once at start; failures are kept for the banner instead of thrown. */
  async function load(): Promise<void> {
    await runLoad(async () => {
      const [i, s] = await Promise.all([api.app.info(), api.settings.get()]);
      info.value = i;
      settings.value = s;
    });
  }

  /** Saves a partial settings change; returns whether it stuck. */
  async function saveSettings(patch: Partial<Settings>): Promise<boolean> {
    saving.value = true;
    saveError.value = null;
    try {
      settings.value = await api.settings.set(patch);
      return true;
    } catch (error) {
      saveError.value = error;
      return false;
    } finally {
      saving.value = false;
    }
  }

  /** Secrets state changes with the profile (main reports it there too). */
  function setSecrets(secrets: AppInfo['secrets']): void {
    if (info.value) info.value = { ...info.value, secrets };
  }

  watch(
    theme,
    (value) => {
      if (typeof document === 'undefined') return;
      if (value === 'system') document.documentElement.removeAttribute('data-theme');
      else document.documentElement.setAttribute('data-theme', value);
    },
    { immediate: true },
  );

  /** Subscribes to a main event; the caller keeps and flushes the disposer. */
  const onEvent = api.on;

  return {
    onEvent,
    info,
    settings,
    loadError,
    saving,
    saveError,
    theme,
    secretsWarning,
    load,
    saveSettings,
    setSecrets,
  };
});
