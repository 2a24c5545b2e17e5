import { Menu, Tray, nativeImage } from 'electron';
import { sameTrayModel, type TrayModel } from './trayModel';
import { trayMenuTemplate, type TrayMenuActions, type TrayMenuInput } from './trayMenu';
import { trayIconPath } from './trayIcons';
import { isMuted } from './mute';

/** The tray icon, redrawn (image, tooltip and the whole menu) whenever the model or menu inputs change. */
export class TrayIcon {
  private readonly tray: Tray;
  private lastModel: TrayModel | null = null;
  private lastMenuKey = '';

  constructor(
    private readonly assetsDir: string,
    private readonly actions: TrayMenuActions,
    onClick: () => void,
  ) {
    this.tray = new Tray(nativeImage.createFromPath(trayIconPath(assetsDir, 'ok', process.platform)));
    this.tray.setToolTip('Cronbeat');
    // On Windows a left click opens the window; elsewhere a click shows the menu.
    if (process.platform === 'win32') this.tray.on('click', onClick);
  }

  render(input: TrayMenuInput): void {
    const menuKey = JSON.stringify({ ...input, now: undefined, muted: isMuted(input.mutedUntil, input.now) });
    if (sameTrayModel(this.lastModel, input.model) && menuKey === this.lastMenuKey) return;
    if (this.lastModel?.state !== input.model.state) {
      this.tray.setImage(nativeImage.createFromPath(trayIconPath(this.assetsDir, input.model.state, process.platform)));
    }
    this.tray.setToolTip(input.model.tooltip);
    this.tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(input, this.actions)));
    this.lastModel = input.model;
    this.lastMenuKey = menuKey;
  }

  /** The next render rebuilds the menu: a checkbox ticks itself when clicked, also when the change it asked for failed. */
  invalidate(): void {
    this.lastMenuKey = '';
  }

  destroy(): void {
    this.tray.destroy();
  }
}
