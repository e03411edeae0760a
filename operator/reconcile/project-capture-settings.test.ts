/** A key's effective capture settings: the key's fields over the group's, then the defaults. */
import { describe, expect, it } from 'vitest';
import { projectCaptureSettings } from './project-capture-settings.js';

describe('projectCaptureSettings', () => {
  it('is absent when neither requests nor responses are captured', () => {
    expect(projectCaptureSettings(undefined, undefined)).toBeUndefined();
    expect(projectCaptureSettings({ maxBytes: 2048 }, { retentionDays: 30 })).toBeUndefined();
    // The key turns off what its group turns on.
    expect(projectCaptureSettings({ requests: false }, { requests: true })).toBeUndefined();
  });

  it("takes the group's settings with the defaults for what it leaves out", () => {
    expect(projectCaptureSettings(undefined, { responses: true })).toEqual({
      requests: false,
      responses: true,
      maxBytes: 65_536,
      retentionDays: 7,
    });
  });

  it("overrides the group's fields one by one with the key's", () => {
    expect(
      projectCaptureSettings(
        { requests: true, retentionDays: 1 },
        { responses: true, maxBytes: 4096, retentionDays: 30 },
      ),
    ).toEqual({ requests: true, responses: true, maxBytes: 4096, retentionDays: 1 });
  });
});
