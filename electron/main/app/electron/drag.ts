import type { NativeImage } from 'electron';
import dragIconDataUrl from '../../../../build/icons/32x32.png?inline';
import type { ElectronModule } from './types';

/** What drag-out needs of the page that asked: Electron's `webContents.startDrag`. */
interface DragSource {
  startDrag(item: { file: string; icon: NativeImage }): void;
}

function isDragSource(sender: unknown): sender is DragSource {
  return typeof (sender as Partial<DragSource> | null)?.startDrag === 'function';
}

/**
 * Drag-out of a library file, started on the page that asked, at once (the mouse is still down only now), with
 * the app's bundled icon: no awaited `getFileIcon` (an empty icon throws on macOS), and an error is logged and
 * answered as "not started", never left as an unhandled rejection.
 */
export function createDragOut(
  electron: Pick<ElectronModule, 'nativeImage'>,
  log: (message: string, error?: unknown) => void,
): (path: string, sender: unknown) => boolean {
  let icon: NativeImage | null = null;
  return (path, sender) => {
    if (!isDragSource(sender)) return false;
    try {
      icon ??= electron.nativeImage.createFromDataURL(dragIconDataUrl);
      sender.startDrag({ file: path, icon });
      return true;
    } catch (error) {
      log('drag-out could not start', error);
      return false;
    }
  };
}
