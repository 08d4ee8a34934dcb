import { contextBridge, ipcRenderer } from 'electron';
import { createBridgeApi } from './bridge';

// contextIsolation is on: the page sees only this frozen object, never ipcRenderer.
contextBridge.exposeInMainWorld('takedesk', createBridgeApi(ipcRenderer));
