import { createRouter, createWebHashHistory, type RouteRecordRaw } from 'vue-router';

// Hash history: the app is served from app://takedesk/ in Electron and from the host's root in browser mode.
// Screens are split out so the first paint only loads the shell and the projects list.
export const routes: RouteRecordRaw[] = [
  { path: '/', redirect: '/projects' },
  {
    path: '/projects',
    name: 'projects',
    component: () => import('./views/ProjectsView.vue'),
    meta: { title: 'Projects' },
  },
  {
    path: '/projects/new',
    name: 'new-project',
    component: () => import('./views/NewProjectView.vue'),
    meta: { title: 'New project' },
  },
  {
    path: '/projects/:id',
    name: 'project',
    component: () => import('./views/ProjectView.vue'),
    props: true,
    meta: { title: 'Project' },
  },
  {
    path: '/review/:deliverableId',
    name: 'review',
    component: () => import('./views/ReviewView.vue'),
    props: true,
    meta: { title: 'Review' },
  },
  {
    path: '/samples',
    name: 'samples',
    component: () => import('./views/SamplesView.vue'),
    meta: { title: 'Samples' },
  },
  {
    path: '/downloads',
    name: 'downloads',
    component: () => import('./views/DownloadsView.vue'),
    meta: { title: 'Downloads' },
  },
  {
    path: '/library',
    name: 'library',
    component: () => import('./views/LibraryView.vue'),
    meta: { title: 'Library' },
  },
  {
    path: '/outbox',
    name: 'outbox',
    component: () => import('./views/OutboxView.vue'),
    meta: { title: 'Outbox' },
  },
  {
    path: '/settings',
    name: 'settings',
    component: () => import('./views/SettingsView.vue'),
    meta: { title: 'Settings' },
  },
  { path: '/:pathMatch(.*)*', redirect: '/projects' },
];

/** The app's router; created per app so tests can mount their own. */
export function createAppRouter() {
  const router = createRouter({ history: createWebHashHistory(), routes });
  router.afterEach((to) => {
    const title = typeof to.meta.title === 'string' ? to.meta.title : '';
    document.title = title ? `${title} · Takedesk` : 'Takedesk';
  });
  return router;
}
