/** The public client API: {@code HttpClient}, request, response, drain policy and trace hooks. */
package dev.shuttle.client;
