import { expect, it } from 'vitest';
import { createDragOut } from './drag';
import { createFakeElectron } from './test-support/fake-electron';
import type { ElectronModule } from './types';

const setup = () => {
  const fake = createFakeElectron();
  const logged: string[] = [];
  const drag = createDragOut(fake.electron as unknown as Pick<ElectronModule, 'nativeImage'>, (m) =>
    logged.push(m),
  );
  return { ...fake, drag, logged };
};

it('starts the drag at once on the page that asked, with the bundled (non-empty) icon', async () => {
  const { drag, record, FakeWindow, electron } = setup();
  await electron.app.whenReady(); // windows exist only once the app is ready
  {
    const win = new FakeWindow({});
    expect(drag('/lib/take.wav', win.webContents)).toBe(true);
    // Synchronously: the item is recorded before any await, while the mouse is still down.
    expect(record.drags).toHaveLength(1);
    expect(record.drags[0]!.file).toBe('/lib/take.wav');
    const icon = record.drags[0]!.icon as { url: string; isEmpty(): boolean };
    expect(icon.isEmpty()).toBe(false);
    expect(icon.url).toMatch(/^data:image\/png;base64,iVBOR/);
  }
});

it('no sender (browser mode, a test) starts nothing; a sender that throws is logged and answered false', () => {
  const { drag, logged } = setup();
  expect(drag('/lib/take.wav', undefined)).toBe(false);
  expect(drag('/lib/take.wav', { startDrag: 'not a function' })).toBe(false);
  const throwing = {
    startDrag() {
      throw new Error("Must specify non-empty 'icon' option");
    },
  };
  expect(drag('/lib/take.wav', throwing)).toBe(false);
  expect(logged).toEqual(['drag-out could not start']);
});
