"use client";

import { useRouter } from "next/navigation";
import { messages } from "@/lib/messages";
import { api } from "@/trpc/react";
import { Button } from "@/components/ui/button";
import { FileInput } from "@/components/ui/file-input";
import { StatusMessage } from "@/components/ui/status-message";
import { useFlashMessage } from "@/components/ui/use-flash-message";
import { loadPage } from "@/components/ui/load-page";

const m = messages.profile;

/** 'Upload New Picture': images only, checked on the server, kept on the profile. */
export function AvatarUpload() {
  const router = useRouter();
  const flash = useFlashMessage();
  const upload = api.profile.uploadAvatar.useMutation({
    onSuccess: ({ message }) => {
      flash.show(message, "success");
      router.refresh();
    },
    onError: (error) => flash.show(error.message || m.uploadFailed, "error"),
  });
  return (
    <div className="space-y-2">
      <label htmlFor="avatar-upload" className="block text-sm font-medium">
        Upload New Picture
      </label>
      <FileInput
        id="avatar-upload"
        kind="image"
        disabled={upload.isPending}
        className="block text-sm file:mr-4 file:rounded-lg file:border-0 file:bg-brand-50 file:px-4 file:py-2 file:font-semibold file:text-brand-800"
        onAccepted={(file, input) => {
          const form = new FormData();
          form.set("image", file);
          upload.mutate(form);
          input.value = "";
        }}
      />
      <StatusMessage message={flash.message} />
    </div>
  );
}

/** 'Delete Profile', after the spec's confirmation. */
export function DeleteProfileButton() {
  const remove = api.profile.deleteAccount.useMutation({
    onSuccess: () => loadPage("/"),
    onError: () => window.alert(m.deleteFailed),
  });
  return (
    <Button variant="danger" disabled={remove.isPending} onClick={() => window.confirm(m.deleteConfirm) && remove.mutate()}>
      Delete Profile
    </Button>
  );
}
