/**
 * Administration, mounted under /admin: its pages are loaded when first opened, so the first
 * page's JavaScript stays small for the many users who never administer.
 */
import { lazy, Suspense } from 'react';

const AdminPages = lazy(() =>
  import('./admin-pages.js').then((module) => ({ default: module.AdminPages })),
);

export function AdminRoutes() {
  return (
    <Suspense fallback={<p role="status">Loading administration…</p>}>
      <AdminPages />
    </Suspense>
  );
}
