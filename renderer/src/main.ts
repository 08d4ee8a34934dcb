import './zod-config';
import { createApp } from 'vue';
import { createPinia } from 'pinia';
import App from './App.vue';
import { createAppRouter } from './router';
import { API_KEY, api } from './bridge';
import './styles/tokens.css';
import './styles/base.css';

const app = createApp(App);
app.provide(API_KEY, api);
app.use(createPinia());
app.use(createAppRouter());
app.mount('#app');
